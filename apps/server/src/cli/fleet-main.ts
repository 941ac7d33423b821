import { runFleet } from './fleet.js';

process.exitCode = await runFleet(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
