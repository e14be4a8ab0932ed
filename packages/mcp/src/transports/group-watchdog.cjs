#!/usr/bin/env node
// The process-group watchdog of @agent/mcp: outlives its parent just long enough to stop the
// stdio servers the parent started, even when the parent was killed with SIGKILL (which runs no
// cleanup). Plain CommonJS so Node runs it as shipped, from `src` or from an installed package.
//
// Protocol, on stdin, one line each: `+<pgid>` (a server group to watch), `-<pgid>` (that group
// was stopped by the parent). When stdin ends (the parent exited or died: the kernel closes its
// end of the pipe) or the parent pid changes, every group still listed gets SIGTERM, then
// SIGKILL after GRACE_MS for whatever is left, and the watchdog exits.
'use strict';

const GRACE_MS = 1500;
const POLL_MS = 50;
const parentPid = process.ppid;
const groups = new Set();
let buffered = '';
let ending = false;

/** False when no process of the group is left (or none we may signal). */
function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

function groupExists(pgid) {
  return signalGroup(pgid, 0);
}

function onLine(line) {
  const match = /^([+-])(\d+)$/.exec(line.trim());
  if (match === null) return;
  const pgid = Number(match[2]);
  if (pgid <= 1) return;
  if (match[1] === '+') groups.add(pgid);
  else groups.delete(pgid);
}

function stopAll() {
  if (ending) return;
  ending = true;
  const live = [...groups].filter((pgid) => signalGroup(pgid, 'SIGTERM'));
  const deadline = Date.now() + GRACE_MS;
  const poll = setInterval(() => {
    const left = live.filter(groupExists);
    if (left.length > 0 && Date.now() < deadline) return;
    for (const pgid of left) signalGroup(pgid, 'SIGKILL');
    clearInterval(poll);
    process.exit(0);
  }, POLL_MS);
}

process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let newline = buffered.indexOf('\n');
  while (newline !== -1) {
    onLine(buffered.slice(0, newline));
    buffered = buffered.slice(newline + 1);
    newline = buffered.indexOf('\n');
  }
});
process.stdin.on('end', stopAll);
process.stdin.on('error', stopAll);
// Belt and braces: a parent that died while something else kept the pipe open.
setInterval(() => {
  if (process.ppid !== parentPid) stopAll();
}, 1000).unref();
// It runs in a session of its own (no terminal signals reach it); a stray SIGTERM (`pkill node`
// takes the parent too) must not end it before it has done its work.
process.on('SIGTERM', () => {});
