// one free-port helper for the server's tests and these
export { freePort } from '../apps/server/test/helpers/freePort.ts';
