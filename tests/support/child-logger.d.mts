import type { Logger } from '@charter/core';
export declare const printLine: (line: unknown) => boolean;
export declare const plainFields: (
  fields: Record<string, unknown> | undefined,
) => Record<string, unknown> | undefined;
export declare const childLogger: Logger;
