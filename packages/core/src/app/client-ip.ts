export { clientIp, originalRequest, setRequestPeer } from '../pipeline/client-address.ts';
