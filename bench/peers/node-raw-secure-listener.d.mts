import type { IncomingMessage, ServerResponse } from 'node:http';
export declare function rawSecureListener(req: IncomingMessage, res: ServerResponse): void;
