// The local registry's process: verdaccio on a port the system picks on loopback. Prints
// `listening <port>` once it accepts connections; SIGTERM closes it, and so does the end of its
// standard input (the parent died, even by SIGKILL), so it never outlives the test.
import { runServer } from 'verdaccio';

const [configPath] = process.argv.slice(2);
if (configPath === undefined) {
  process.stderr.write('usage: node registry-process.mjs <config.yaml>\n');
  process.exit(2);
}
const server = await runServer(configPath);
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.once('SIGTERM', () => server.close(() => process.exit(0)));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
