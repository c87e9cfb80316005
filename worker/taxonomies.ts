/** The sports a rider's content is filed under (the interface spec: skateboarding, snowboarding, BMX, wakeboarding). */
export const SPORTS = ['skateboarding', 'snowboarding', 'bmx', 'wakeboarding'] as const;
