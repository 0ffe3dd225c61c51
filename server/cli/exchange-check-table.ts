import type { StepResult } from '../trading/exchanges/round-trip-types';

const pad = (text: string, width: number) => (text.length >= width ? text : text + ' '.repeat(width - text.length));

/**
 * The round trip as a table: one row per step (verdict, outcome, what we did or why it failed), then
 * the exchange's answer to each request of that step (HTTP status, code, message), then the probes
 * whose answer differs from the documents: those are the unverified rows this run settles.
 */
export function formatRoundTrip(results: StepResult[]): string[] {
  const nameWidth = Math.max(4, ...results.map((r) => r.name.length)) + 2;
  const lines = [`${pad('#', 4)}${pad('Step', nameWidth)}${pad('Verdict', 9)}${pad('Outcome', 17)}Detail`];
  results.forEach((result, index) => {
    lines.push(`${pad(String(index + 1), 4)}${pad(result.name, nameWidth)}${pad(result.verdict, 9)}${pad(result.outcome, 17)}${result.detail}`);
    for (const answer of result.answers) {
      const said = [answer.code, answer.message ? `"${answer.message}"` : undefined].filter(Boolean).join(' ');
      lines.push(`${' '.repeat(4 + nameWidth)}${answer.method} ${answer.path} -> HTTP ${answer.status ?? '-'} ${said}`.trimEnd());
    }
  });
  const failed = results.filter((r) => r.verdict === 'FAIL').length;
  const differs = results.filter((r) => r.verdict === 'DIFFERS');
  lines.push('');
  lines.push(`${results.length - failed - differs.length} passed, ${failed} failed, ${differs.length} differ from the documents.`);
  for (const probe of differs) lines.push(`  DIFFERS ${probe.name}: expected ${probe.probe}; the exchange gave ${probe.outcome} (${probe.detail}).`);
  return lines;
}
