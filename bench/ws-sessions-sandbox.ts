/**
 * Child process of `npm run bench -- ws-sessions`: a sandbox with N funded Bybit accounts whose keys
 * follow from their index (`benchCredentials`), so the client process holds only its own sockets.
 * Prints one `READY {url, controlToken}` line and runs until stdin closes.
 */
import { startSandbox } from '../server/sandbox/index';
import { benchCredentials } from './ws-sessions-keys';

const count = Number(process.argv[2] ?? 5000);
const sandbox = await startSandbox({ randomWalk: false });
for (let i = 0; i < count; i += 1) sandbox.control.createAccount({ exchange: 'bybit', ...benchCredentials(i), balance: 10_000 });
console.log(`READY ${JSON.stringify({ url: sandbox.url, tradeSocketUrl: sandbox.tradeSocketUrl, controlToken: sandbox.controlToken })}`);
process.stdin.resume();
process.stdin.on('end', () => void sandbox.close().then(() => process.exit(0)));
