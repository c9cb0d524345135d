import type { Logger } from '@charter/core';
export declare const printLine: (line: unknown) => boolean;
export declare const childLogger: Logger;
