import type { App } from '@charter/app';
export type Validator = 'zod' | 'arktype';
export declare function charterModule<T>(file: 'index.js' | 'bun.js' | 'node.js'): Promise<T>;
export declare function charterApp(AppClass: typeof App, validator: Validator): Promise<App>;
