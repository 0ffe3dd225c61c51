/** One benchmark: a name for `npm run bench -- <name>` and what it runs. */
export interface Benchmark {
  name: string;
  description: string;
  run(): Promise<void>;
}
