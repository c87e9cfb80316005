import source from './chart-library-source.js';

export const CHART_LIBRARY: string = source;
