import type { ReportReason } from '../documents';

/** The report reason a model report files under: the first of its categories that names one, else `other`. */
export function reportReasonOf(categories: readonly string[]): ReportReason {
  for (const category of categories) {
    const family = category.split('/')[0];
    if (family === 'harassment' || family === 'hate' || family === 'violence' || family === 'self-harm') return family;
    if (family === 'sexual') return 'nudity';
    if (category === 'illicit/violent') return 'violence';
  }
  return 'other';
}
