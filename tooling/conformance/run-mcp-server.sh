#!/usr/bin/env bash
# Runs the MCP conformance server scenarios that apply to a tools-only server against a running
# MCP headend (for example `agent-server --agent a.ai --mcp http:8084 --allow-no-auth`).
# The suite runs on the Node 22 binary installed here.
# Usage: tooling/conformance/run-mcp-server.sh <url> [scenario ...]
#   default scenarios: server-initialize ping tools-list dns-rebinding-protection logging-set-level
#   server-sse-multiple-streams (server-sse-polling needs an agent named test_reconnection and
#   streamCloseAfterMs: 0, as in the vitest test)
# The same scenarios run in vitest: packages/headends/test/mcp-conformance.test.ts.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
node22="$here/node_modules/.bin/node"
cli="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ ! -x "$node22" ]; then
  echo "conformance tools are not installed: run 'npm ci --prefix tooling/conformance'" >&2
  exit 2
fi
if [ $# -lt 1 ]; then
  echo "usage: $0 <url of the MCP endpoint, e.g. http://localhost:8084/mcp> [scenario ...]" >&2
  exit 2
fi
url="$1"
shift
scenarios=("$@")
[ ${#scenarios[@]} -eq 0 ] && scenarios=(server-initialize ping tools-list dns-rebinding-protection logging-set-level server-sse-multiple-streams)
status=0
for scenario in "${scenarios[@]}"; do
  if output="$("$node22" "$cli" server --url "$url" --scenario "$scenario" 2>&1)" \
    && ! grep -qE '\] .*(FAILURE|WARNING)' <<<"$output"; then
    echo "conformance $scenario: passed"
  else
    printf '%s\n' "$output"
    echo "conformance $scenario: FAILED"
    status=1
  fi
done
exit $status
