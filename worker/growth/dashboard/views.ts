import type { Cohort, Quality, WprWindow } from './service';

export function wprView(asOf: Date, windows: WprWindow[]) {
  return {
    asOf: asOf.toISOString(),
    windows: windows.map((window) => ({
      from: window.from.toISOString(),
      to: window.to.toISOString(),
      riders: window.riders,
      actions: window.actions,
      depth: window.riders ? window.actions / window.riders : 0,
      domains: window.domains,
      excluded: window.excluded,
    })),
  };
}

export function retentionView(asOf: Date, cohorts: Cohort[]) {
  return {
    asOf: asOf.toISOString(),
    cohorts: cohorts.map((cohort) => {
      const [w1, w2, w3, w4] = cohort.windows.map((riders) =>
        riders === null ? null : { riders, share: cohort.riders ? riders / cohort.riders : 0 },
      );
      return {
        from: cohort.from.toISOString(),
        to: cohort.to.toISOString(),
        riders: cohort.riders,
        excluded: cohort.excluded,
        w1,
        w2,
        w3,
        w4,
      };
    }),
  };
}

export function qualityView(quality: Quality) {
  const share = quality.events ? quality.complete / quality.events : null;
  return {
    from: quality.from.toISOString(),
    to: quality.to.toISOString(),
    events: quality.events,
    complete: quality.complete,
    share,
    target: quality.target,
    meetsTarget: share === null ? null : share >= quality.target,
    missing: quality.missing,
    excluded: quality.excluded,
  };
}
