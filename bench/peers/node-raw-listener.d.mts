import type { IncomingMessage, ServerResponse } from 'node:http';
export declare function rawListener(req: IncomingMessage, res: ServerResponse): void;
