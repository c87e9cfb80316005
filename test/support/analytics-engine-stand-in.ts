/**
 * Workers Analytics Engine's binding as documented (`writeDataPoint({blobs, doubles, indexes})`, nothing returned,
 * nothing awaited), keeping every point it is given so a test can read what the service measured.
 */
export class AnalyticsEngineStandIn implements AnalyticsEngineDataset {
  readonly points: Required<AnalyticsEngineDataPoint>[] = [];
  writeDataPoint(point: AnalyticsEngineDataPoint = {}): void {
    this.points.push({ blobs: point.blobs ?? [], doubles: point.doubles ?? [], indexes: point.indexes ?? [] });
  }
}
