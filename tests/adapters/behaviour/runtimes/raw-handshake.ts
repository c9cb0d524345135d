/** A WebSocket handshake on a raw socket, to read the 101 head that WebSocket clients hide. */
import { connect } from 'node:net';

/**
 * Sends a WebSocket opening handshake (RFC 6455 §4.1) on a raw TCP connection and returns the
 * response head: status line and header fields as the server wrote them.
 */
export async function rawHandshake(
  url: string,
  path: string,
  protocol: string,
): Promise<{ status: number; headers: Headers }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n` +
          `Sec-WebSocket-Protocol: ${protocol}\r\n\r\n`,
      );
    });
    let head = '';
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.destroy();
      const [statusLine = '', ...lines] = head.slice(0, end).split('\r\n');
      const headers = new Headers();
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers });
    });
    socket.on('error', reject);
  });
}
