// The statistics of experiment results (docs/experiments.md, "Results"): pure functions over counts.

/** The two-sided 95% normal quantile. */
export const Z_95 = 1.959963984540054;

/** The p-value under which the sample-ratio check flags a mismatch. */
export const SRM_THRESHOLD = 0.001;

/** converted / units; null when nobody was exposed. */
export const rate = (converted: number, units: number): number | null => (units > 0 ? converted / units : null);

export interface Interval {
  difference: number;
  low: number;
  high: number;
}

/**
 * The difference of two proportions (variant − control) with the Wald 95% interval:
 * d ± 1.96·√(p₁(1−p₁)/n₁ + p₀(1−p₀)/n₀). Null when either arm has no exposed unit.
 */
export function waldDifference(
  variant: { units: number; converted: number },
  control: { units: number; converted: number },
): Interval | null {
  if (variant.units === 0 || control.units === 0) return null;
  const p1 = variant.converted / variant.units;
  const p0 = control.converted / control.units;
  const se = Math.sqrt((p1 * (1 - p1)) / variant.units + (p0 * (1 - p0)) / control.units);
  const difference = p1 - p0;
  return { difference, low: difference - Z_95 * se, high: difference + Z_95 * se };
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7, nine coefficients: about 15 significant digits). */
function logGamma(x: number): number {
  const c = [
    0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531, -176.6150291621406,
    12.507343278686905, -0.13857109526572012, 9.984369578019572e-6, 1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let sum = c[0]!;
  for (let i = 1; i < 9; i++) sum += c[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** The regularized upper incomplete gamma Q(a, x): a series below a + 1, a continued fraction above (Numerical Recipes 6.2). */
function upperGamma(a: number, x: number): number {
  if (x <= 0) return 1;
  const front = Math.exp(-x + a * Math.log(x) - logGamma(a));
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 1000 && Math.abs(term) > Math.abs(sum) * 1e-16; n++) {
      term *= x / (a + n);
      sum += term;
    }
    return 1 - sum * front;
  }
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-16) break;
  }
  return front * h;
}

/** P(X ≥ x) for X chi-square with `df` degrees of freedom. */
export const chiSquareSurvival = (x: number, df: number): number => upperGamma(df / 2, x / 2);

export interface SampleRatioCheck {
  chiSquare: number;
  degreesOfFreedom: number;
  /** Null when nobody was exposed. */
  pValue: number | null;
  /** pValue < SRM_THRESHOLD. */
  mismatch: boolean;
}

/**
 * Pearson's chi-square goodness-of-fit of the exposed units per variant against the weights (expected
 * = total · weight / 100), k − 1 degrees of freedom: a mismatch means assignment or exposure reporting is broken.
 */
export function sampleRatioCheck(arms: readonly { units: number; weight: number }[]): SampleRatioCheck {
  const total = arms.reduce((sum, arm) => sum + arm.units, 0);
  const degreesOfFreedom = arms.length - 1;
  if (total === 0) return { chiSquare: 0, degreesOfFreedom, pValue: null, mismatch: false };
  const chiSquare = arms.reduce((sum, arm) => {
    const expected = (total * arm.weight) / 100;
    return sum + (arm.units - expected) ** 2 / expected;
  }, 0);
  const pValue = chiSquareSurvival(chiSquare, degreesOfFreedom);
  return { chiSquare, degreesOfFreedom, pValue, mismatch: pValue < SRM_THRESHOLD };
}
