/** One figure of a benchmark run: printed in its table and as a `BENCH_RESULT` line. */
export interface Figure {
  name: string;
  value: number;
  unit: string;
  label: string;
}

/**
 * The figures of one benchmark, named `<benchmark>.<name>` in the `BENCH_RESULT` lines, their values
 * rounded to `digits` decimals.
 */
export function benchFigures(benchmark: string, digits: number) {
  const figures: Figure[] = [];
  return {
    record(name: string, value: number, unit: string, label: string): void {
      figures.push({ name, value: Number(value.toFixed(digits)), unit, label });
    },
    /** The table, then one `BENCH_RESULT` line per figure. */
    print(): void {
      console.log('\n| Figure | Value |\n|---|---|');
      for (const figure of figures) console.log(`| ${figure.label} | ${figure.value} ${figure.unit} |`);
      for (const figure of figures) console.log(`BENCH_RESULT ${JSON.stringify({ name: `${benchmark}.${figure.name}`, value: figure.value, unit: figure.unit })}`);
    },
  };
}
