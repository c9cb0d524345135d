export declare const HOSTNAME: '127.0.0.1';
export declare function portArg(): number;
export declare function extraArgs(): string[];
export declare function announce(port: number, stop: () => unknown): void;
