import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import type { App } from '../../typebox.ts';

/** OpenAPI document generated from the route schemas (@lobby/contracts); UI at /api/docs. */
export default fp(
  async function registerSwagger(app: App): Promise<void> {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Lobby API',
          version: '0.1.0',
          description:
            'Guest and console API. Answers are `{ data: … }`; errors are `{ statusCode, error, message }`, the message naming the field at fault. ' +
            'nginx in front of the server answers three errors itself, in the same shape (infra/nginx/nginx.conf.tmpl): ' +
            '400 for a malformed request or a header over 8 KB, 413 for a body over 64 MB, 414 for a URL over 8 KB.',
        },
        components: {
          securitySchemes: {
            guestBearer: { type: 'http', scheme: 'bearer', description: 'guest access_token' },
            consoleSession: { type: 'apiKey', in: 'cookie', name: 'lobby_session' },
          },
        },
      },
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'swagger' },
);
