import crypto from 'node:crypto';
import { ConsoleSession, ConsoleSessionStatus, DataEnvelope, LoginBody, ProfileImageAnswer, ProfileImageBody, XmppToken } from '@lobby/contracts';
import { Type } from '@sinclair/typebox';
import { errors, fail } from '../../../http/errors.ts';
import { routes } from '../../../http/routes.ts';
import { SESSION_COOKIE, SESSION_TTL_MS, consoleUserOf, hashSessionId } from '../../../plugins/app/auth.ts';
import { consoleJid, publicUser } from '../../../services/consoleUsers.ts';
import { DUMMY_HASH, verifyPassword } from '../../../services/passwords.ts';
import { setProfileImage } from '../../../services/profileImages.ts';

/** The console session: log in (the one public route), log out, who am I, and the XMPP credential. */
export default routes({ access: 'console' }, (app, services) => {
  const { repos, config } = services;

  app.post(
    '/login',
    {
      config: { access: 'public', rateLimit: { max: config.loginRateLimit, timeWindow: '1 minute' } },
      schema: {
        tags: ['console'],
        summary: 'Log a console user in: sets the httpOnly lobby_session cookie (12 h)',
        body: LoginBody,
        response: { 200: DataEnvelope(ConsoleSession), ...errors(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const { email } = request.body;
      // Per account and address, progressively slower after wrong passwords (services/loginThrottle.ts);
      // a try inside the wait is not checked at all, so it tells nothing about the password.
      const wait = await services.loginThrottle.waitMs(email, request.ip);
      if (wait > 0) {
        const seconds = Math.ceil(wait / 1000);
        void reply.header('retry-after', String(seconds));
        return fail(reply, 429, `email: too many wrong passwords for this account, retry in ${seconds} s`);
      }
      const user = await repos.users.byEmail(email);
      // Same work for unknown emails as for wrong passwords.
      const ok = await verifyPassword(request.body.password, user?.passwordHash ?? DUMMY_HASH);
      if (!user || !ok) {
        await services.loginThrottle.failed(email, request.ip);
        return fail(reply, 401, 'email or password is wrong');
      }
      await services.loginThrottle.succeeded(email, request.ip);
      const id = crypto.randomBytes(32).toString('base64url');
      const now = services.now();
      await repos.users.createSession(hashSessionId(services, id), user.id, now, now + SESSION_TTL_MS);
      reply.setCookie(SESSION_COOKIE, id, {
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        // Secure whenever the request came over HTTPS: directly, or through the proxy TRUST_PROXY names
        secure: 'auto',
        maxAge: SESSION_TTL_MS / 1000,
      });
      return { data: { user: await publicUser(services, user) } };
    },
  );

  app.post(
    '/logout',
    {
      schema: {
        tags: ['console'],
        summary: 'End the session and clear the cookie',
        security: [{ consoleSession: [] }],
        response: { 200: DataEnvelope(Type.Object({ loggedOut: Type.Boolean() })), ...errors(401) },
      },
    },
    async (request, reply) => {
      const id = request.cookies[SESSION_COOKIE];
      if (id) await repos.users.deleteSession(hashSessionId(services, id));
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return { data: { loggedOut: true } };
    },
  );

  app.get(
    '/me',
    {
      schema: {
        tags: ['console'],
        summary: 'The logged-in console user',
        security: [{ consoleSession: [] }],
        response: { 200: DataEnvelope(ConsoleSession), ...errors(401) },
      },
    },
    async (request) => ({ data: { user: await publicUser(services, consoleUserOf(request)) } }),
  );

  app.get(
    '/session',
    {
      config: { access: 'public' },
      schema: {
        tags: ['console'],
        summary: 'Whether the session cookie is a live session, and its user: 200 either way (the console asks on load, before sign-in)',
        response: { 200: DataEnvelope(ConsoleSessionStatus) },
      },
    },
    async (request, reply) => {
      const id = request.cookies[SESSION_COOKIE];
      const user = id ? await repos.users.sessionUser(hashSessionId(services, id), services.now()) : undefined;
      if (!user) {
        // an expired or unknown session: the browser drops its cookie, so the next load asks nothing of it
        if (id) reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return { data: { signedIn: false as const } };
      }
      return { data: { signedIn: true as const, user: await publicUser(services, user) } };
    },
  );

  app.put(
    '/profile-image',
    {
      schema: {
        tags: ['console'],
        summary: "Set or clear the logged-in user's picture (an image of the company uploaded with POST /api/upload/image, at most 1 MB): guests see it as the agent's avatar",
        security: [{ consoleSession: [] }],
        body: ProfileImageBody,
        response: { 200: DataEnvelope(ProfileImageAnswer), ...errors(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const me = consoleUserOf(request);
      const r = await setProfileImage(services, me.companyId, me.id, request.body.uploadId);
      if (!r.ok) return fail(reply, r.status, r.message);
      return { data: { profileImageUrl: r.profileImageUrl } };
    },
  );

  app.post(
    '/xmpp-token',
    {
      schema: {
        tags: ['console'],
        summary: "A short-lived XMPP credential for the user's JID (SASL PLAIN password)",
        security: [{ consoleSession: [] }],
        response: { 200: DataEnvelope(XmppToken), ...errors(401) },
      },
    },
    (request) => {
      const jid = consoleJid(services, consoleUserOf(request));
      const t = services.xmppTokens.mint(jid);
      return Promise.resolve({ data: { jid, credential: t.token, expires_in: t.expiresIn } });
    },
  );
});
