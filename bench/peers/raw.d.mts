export interface Echo {
  name: string;
  age: number;
  tags: string[];
}
export declare const STATIC_BODY: { message: string };
export declare function parseId(text: string): number | undefined;
export declare function pathOf(url: string): string;
export declare function userBody(id: number): { id: number; name: string };
export declare function isEcho(value: unknown): value is Echo;
