import { z } from '@hono/zod-openapi';
import { LIMITS } from '../../platform/limits';
import { CLIENT_PLATFORMS } from '../analytics/envelope';
import { experimentKey } from '../analytics/property-types';
import { VALUE_DOMAINS } from '../analytics/taxonomy';

const L = LIMITS.experiments;

export const EXPERIMENT_STATUSES = ['draft', 'running', 'stopped'] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];

/** The first variant is the baseline every other is compared to (docs/experiments.md). */
export const CONTROL = 'control';

const Variant = z
  .object({
    key: experimentKey.describe('lower snake case; the first variant is `control`'),
    weight: z.number().int().min(1).max(99).describe('whole percent of units'),
  })
  .strict();

const Variants = z
  .array(Variant)
  .min(L.variantsMin)
  .max(L.variantsMax)
  .superRefine((variants, ctx) => {
    if (variants[0] && variants[0].key !== CONTROL)
      ctx.addIssue({ code: 'custom', message: 'the first variant must be `control`', path: [0, 'key'] });
    if (new Set(variants.map((v) => v.key)).size !== variants.length)
      ctx.addIssue({ code: 'custom', message: 'variant keys must be distinct' });
    const total = variants.reduce((sum, v) => sum + v.weight, 0);
    if (total !== 100) ctx.addIssue({ code: 'custom', message: `weights must sum to 100 (they sum to ${total})` });
  })
  .describe(`${L.variantsMin} to ${L.variantsMax} variants, control first, weights summing to 100`);

const Platforms = z
  .array(z.enum(CLIENT_PLATFORMS))
  .min(1)
  .max(CLIENT_PLATFORMS.length)
  .refine((platforms) => new Set(platforms).size === platforms.length, 'platforms must be distinct')
  .describe('the platforms the experiment runs on');

const PrimaryMetric = z
  .enum(VALUE_DOMAINS)
  .describe('the meaningful-action domain a unit must act in to convert (docs/analytics.md)');
const Description = z.string().trim().max(L.descriptionMax);

export const ExperimentCreate = z
  .object({
    key: experimentKey.describe('unique; how assignments and exposures name the experiment'),
    description: Description.optional(),
    variants: Variants,
    platforms: Platforms,
    primaryMetric: PrimaryMetric,
    status: z.enum(['draft', 'running']).default('draft'),
  })
  .strict();
export type ExperimentCreate = z.infer<typeof ExperimentCreate>;

export const ExperimentPatch = z
  .object({
    description: Description.optional(),
    variants: Variants.optional().describe('only while draft: once an experiment has run its weights are frozen'),
    platforms: Platforms.optional(),
    primaryMetric: PrimaryMetric.optional(),
    status: z.enum(EXPERIMENT_STATUSES).optional().describe('draft → running ⇄ stopped; never back to draft'),
  })
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, 'name at least one field to change');
export type ExperimentPatch = z.infer<typeof ExperimentPatch>;

export const KeyParam = z.object({
  key: experimentKey.openapi({ param: { name: 'key', in: 'path' } }),
});

export const Experiment = z
  .object({
    key: z.string(),
    description: z.string().nullable(),
    variants: z.array(z.object({ key: z.string(), weight: z.number().int() })),
    status: z.enum(EXPERIMENT_STATUSES),
    platforms: z.array(z.enum(CLIENT_PLATFORMS)),
    primaryMetric: z.enum(VALUE_DOMAINS),
    startedAt: z.string().nullable().describe('when first set running'),
    stoppedAt: z.string().nullable().describe('when last stopped; null while running'),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Experiment');

export const ExperimentList = z.object({ items: z.array(Experiment) }).openapi('ExperimentList');

export const AssignmentQuery = z.object({
  installationId: z
    .string()
    .min(1)
    .max(LIMITS.analytics.envelopeFieldMax)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be an id of letters, digits, - and _')
    .describe("the installation's id: the anonymousId its analytics events carry"),
  platform: z.enum(CLIENT_PLATFORMS),
});

export const Assignments = z
  .object({
    assignments: z
      .record(z.string(), z.string())
      .describe('experiment key → variant key, for the running experiments of the platform'),
  })
  .openapi('ExperimentAssignments');

const Difference = z
  .object({
    difference: z.number().describe('rate − control rate'),
    low: z.number().describe('Wald 95% interval, lower end'),
    high: z.number().describe('Wald 95% interval, upper end'),
  })
  .nullable()
  .describe('null for control, or when either arm has no exposed unit');

export const ExperimentResults = z
  .object({
    key: z.string(),
    status: z.enum(EXPERIMENT_STATUSES),
    primaryMetric: z.enum(VALUE_DOMAINS),
    conversionWindowDays: z.number().int(),
    variants: z.array(
      z.object({
        variant: z.string(),
        weight: z.number().int(),
        exposedUnits: z.number().int(),
        convertedUnits: z
          .number()
          .int()
          .describe('exposed units with a meaningful action of the primary domain within the window'),
        rate: z.number().nullable().describe('convertedUnits / exposedUnits; null with no exposed unit'),
        differenceToControl: Difference,
      }),
    ),
    excludedUnits: z
      .number()
      .int()
      .describe('exposed excluded accounts (admin, bot, analyticsExcluded), never counted'),
    sampleRatio: z
      .object({
        test: z.literal('chi-square goodness of fit against the weights'),
        chiSquare: z.number(),
        degreesOfFreedom: z.number().int(),
        pValue: z.number().nullable().describe('null with no exposed unit'),
        threshold: z.number(),
        mismatch: z.boolean().describe('pValue < threshold'),
      })
      .describe('sample-ratio mismatch check'),
  })
  .openapi('ExperimentResults');
