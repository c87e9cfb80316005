import { describe, expect, it } from 'vitest';
import { EnvelopeFields } from '../../../worker/growth/analytics/envelope';
import { EventBatch } from '../../../worker/growth/analytics/ingest-schema';
import { ANALYTICS_EVENTS } from '../../../worker/growth/analytics/taxonomy';
import { agreesWithZod, sampleOf } from '../../support/fast-accept-corpus';

// Ingestion checks valid envelopes without zod's machinery (worker/growth/analytics/classify.ts); this holds the
// fast checks to zod's answers for the envelope and every event's properties, so a schema change cannot split them.
describe('analytics envelopes checked fast', () => {
  it('the envelope: accepted fast exactly where zod accepts, with the same output', () => {
    const sample = sampleOf(EnvelopeFields) as Record<string, unknown>;
    expect(sample.source).toBeDefined();
    expect(agreesWithZod(EnvelopeFields, sample)).toBeGreaterThan(10);
  });

  it("the envelope's fields each optional, as a quarantine row reads them", () => {
    const partial = EnvelopeFields.partial();
    expect(agreesWithZod(partial, sampleOf(EnvelopeFields))).toBeGreaterThan(10);
  });

  it('the batch body the route validates', () => {
    expect(agreesWithZod(EventBatch, sampleOf(EventBatch))).toBeGreaterThan(0);
  });

  it.each(Object.keys(ANALYTICS_EVENTS))('the properties of %s', (name) => {
    const schema = ANALYTICS_EVENTS[name as keyof typeof ANALYTICS_EVENTS].properties;
    expect(agreesWithZod(schema, sampleOf(schema))).toBeGreaterThan(0);
  });
});
