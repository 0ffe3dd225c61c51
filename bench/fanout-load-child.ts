import { webhookLoad } from './fanout-load';

/** Child process of `webhookLoadElsewhere`: reads its job as JSON on stdin, answers the result as JSON on stdout. */
let input = '';
for await (const chunk of process.stdin) input += String(chunk);
const job = JSON.parse(input) as { baseUrl: string; tokens: string[]; rate: number; seconds: number; label: string; warmSeconds: number };
// The same load first, unmeasured: this process's JIT, its connections and the server's pool are warm when measuring starts.
if (job.warmSeconds > 0) await webhookLoad(job.baseUrl, job.tokens, job.rate, job.warmSeconds, `${job.label}w`);
process.stdout.write(JSON.stringify(await webhookLoad(job.baseUrl, job.tokens, job.rate, job.seconds, job.label)));
