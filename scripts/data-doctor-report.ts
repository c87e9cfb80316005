import type { DoctorReport } from './data-doctor';

/**
 * The doctor's report as an operator reads it: per collection and field, how many documents have each kind of
 * problem and which (ids only, never content), what --fix repaired or would repair, and what it will not.
 */
export function formatDoctorReport(report: DoctorReport): string[] {
  const lines = [
    report.fix ? 'db:doctor --fix: repairing in place' : 'db:doctor (dry run: nothing written; --fix repairs)',
  ];
  let repairable = 0;
  let unrepairable = 0;
  for (const collection of report.collections) {
    const resumed = collection.resumedAfter ? `, resumed after ${collection.resumedAfter}` : '';
    const repaired = report.fix ? `, ${collection.repaired} repaired` : '';
    lines.push(`${collection.collection}: ${collection.scanned} scanned${repaired}${resumed}`);
    for (const problem of collection.problems) {
      const verdict = problem.repairable ? (report.fix ? 'repaired' : 'repairable') : 'NOT repaired';
      const more = problem.count > problem.ids.length ? ` …and ${problem.count - problem.ids.length} more` : '';
      lines.push(
        `  ${problem.field}: ${problem.problem}: ${problem.count} (${verdict}) ids ${problem.ids.join(' ')}${more}`,
      );
      if (problem.repairable) repairable += problem.count;
      else unrepairable += problem.count;
    }
    if (collection.changedMeanwhile)
      lines.push(`  ${collection.changedMeanwhile} changed while being repaired: run --fix again`);
  }
  if (report.unknown.length) lines.push(`not the service's collections (not checked): ${report.unknown.join(', ')}`);
  const done = report.fix ? 'repaired' : 'repairable by --fix';
  lines.push(`total: ${repairable} ${done}, ${unrepairable} not repaired (listed above for an operator)`);
  return lines;
}
