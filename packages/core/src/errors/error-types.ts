/**
 * The one catalog of problem `type` URIs (RFC 9457 §3.1.1) that the framework emits. Each URI
 * names a page on the documentation site, which is checked against this table.
 */
export const ERROR_TYPE_BASE = 'https://charter.dev/errors/';

export const ERROR_CODES = {
  400: 'bad-request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  405: 'method-not-allowed',
  408: 'request-timeout',
  409: 'conflict',
  413: 'payload-too-large',
  415: 'unsupported-media-type',
  422: 'validation',
  429: 'too-many-requests',
  431: 'request-header-fields-too-large',
  500: 'internal',
  503: 'service-unavailable',
  504: 'gateway-timeout',
} as const satisfies Record<number, string>;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** The `type` URI for an error code, e.g. `https://charter.dev/errors/request-timeout`. */
export function errorTypeUri(code: ErrorCode): string {
  return ERROR_TYPE_BASE + code;
}

/**
 * Reason phrases (RFC 9110 §15; 428, 429 and 431 from RFC 6585): problem titles when none is given,
 * and the phrase an adapter writes where a platform wants one (an ALB's `statusDescription`).
 */
export const STATUS_TITLES: Readonly<Record<number, string>> = {
  100: 'Continue',
  101: 'Switching Protocols',
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  203: 'Non-Authoritative Information',
  204: 'No Content',
  205: 'Reset Content',
  206: 'Partial Content',
  300: 'Multiple Choices',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  421: 'Misdirected Request',
  422: 'Unprocessable Content',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
};

/** The reason phrase of `status`; a generic one by class for a code without a registered phrase. */
export function statusTitle(status: number): string {
  return (
    STATUS_TITLES[status] ?? (status >= 500 ? 'Server Error' : status >= 400 ? 'Client Error' : 'Status')
  );
}
