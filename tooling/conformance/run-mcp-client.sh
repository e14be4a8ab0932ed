#!/usr/bin/env bash
# Runs the MCP conformance client scenarios that apply to a tools client against @agent/mcp.
# The suite runs on the Node 22 binary installed here; the client runs on the workspace's Node.
# Usage: tooling/conformance/run-mcp-client.sh [scenario ...]   (default: initialize tools_call sse-retry)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
node20="$(command -v node)"
node22="$here/node_modules/.bin/node"
cli="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
if [ ! -x "$node22" ]; then
  echo "conformance tools are not installed: run 'npm ci --prefix tooling/conformance'" >&2
  exit 2
fi
if [ ! -f "$here/../../packages/mcp/dist/index.js" ]; then
  echo "packages/mcp is not built: run 'pnpm --filter @agent/mcp build'" >&2
  exit 2
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
scenarios=("$@")
[ ${#scenarios[@]} -eq 0 ] && scenarios=(initialize tools_call sse-retry)
status=0
for scenario in "${scenarios[@]}"; do
  if "$node22" "$cli" client --command "$node20 $here/mcp-client.mjs" --scenario "$scenario" -o "$out"; then
    echo "conformance $scenario: passed"
  else
    echo "conformance $scenario: FAILED"
    status=1
  fi
done
exit $status
