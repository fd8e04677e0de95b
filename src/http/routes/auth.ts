// Sign up, log in, log out. The rules are the API's (src/http/routes/api/accounts.ts
// exports them): same username pattern, password length, taken names, the
// same budgets of password failures and sign-ups, and the session cookie. A bad form is re-rendered with its values (never
// the password) and the errors, under the status the API would answer.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fields } from '../form-fields.ts';
import { typed } from '../typed.ts';
import { checkCredentials, registerAccount, PASSWORD_MIN } from '../../domain/accounts.ts';
import { findLink, type LinkView } from '../../domain/account-links.ts';
import { closeSession, openSession, passwordClient, rememberDevice, safeNext } from '../auth.ts';
import { asRefusal } from '../errors.ts';
import { RetryLaterError } from '../../domain/attempt-budgets.ts';
import type { Config } from '../../config.ts';
import { html } from '../render/html.ts';
import { sendPage } from '../render/layout.ts';
import { errorSummary, field, type FieldErrors } from '../render/forms.ts';
import { t, th } from '../i18n/index.ts';
import { localizeRefusal } from '../i18n/refusals.ts';
import { escapeHtml } from '../render/html.ts';

const str = (v: unknown) => (typeof v === 'string' ? v : '');

const labels = () => ({
  username: t('auth.username'),
  password: t('auth.password'),
  email: t('auth.email'),
  inviteCode: t('auth.inviteCode'),
  studentId: t('auth.studentId'),
  fullName: t('auth.fullName'),
});

type Policy = Pick<Config, 'registration' | 'registrationEmailDomains' | 'signupRequire'>;
interface AuthValues {
  username: string;
  next: string;
  email?: string;
  studentId?: string;
  fullName?: string;
  /** A roster invitation (/signup?invite=...): its token and what it brings. */
  invitation?: { token: string; link: (LinkView & { kind: 'invite' }) | null };
}

/** A value the sign-up takes from the invitation: shown, not typed. */
const locked = (name: string, label: string, value: string) =>
  field({ name, label, value, hint: t('auth.fromInvitation'), attrs: html`readonly aria-readonly="true"` });

/** The fields SIGNUP_REQUIRE asks for (e-mail unless the policy asks it already), as typed inputs. */
function requiredFields(policy: Policy, values: AuthValues, errors: FieldErrors, skip: { email?: boolean; fullName?: boolean; studentId?: boolean } = {}) {
  const need = (f: 'email' | 'studentId' | 'fullName') => policy.signupRequire.includes(f) && !skip[f];
  return html`${need('studentId') ? field({ name: 'studentId', label: t('auth.studentId'), value: values.studentId ?? '', required: true, hint: t('auth.studentIdHint'), errors, attrs: html`autocomplete="off" maxlength="64"` }) : ''}${
    need('fullName')
      ? field({
          name: 'fullName',
          label: t('auth.fullName'),
          value: values.fullName ?? '',
          required: true,
          autocomplete: 'name',
          errors,
          attrs: html`maxlength="200"`,
        })
      : ''
  }${need('email') ? field({ name: 'email', label: t('auth.email'), value: values.email ?? '', required: true, autocomplete: 'email', errors, attrs: html`inputmode="email" maxlength="320"` }) : ''}`;
}

/** The sign-up fields the registration policy (or an invitation) asks for beyond username and password. */
function policyFields(policy: Policy, values: AuthValues, errors: FieldErrors) {
  const inv = values.invitation;
  if (inv?.link) {
    const l = inv.link;
    return html`<input type="hidden" name="invitation" value="${inv.token}">
${locked('studentId', t('auth.studentId'), l.studentId)}
${l.fullName ? locked('fullName', t('auth.fullName'), l.fullName) : ''}
${l.email ? locked('email', t('auth.email'), l.email) : ''}
${requiredFields(policy, values, errors, { studentId: true, fullName: !!l.fullName, email: !!l.email })}`;
  }
  if (policy.registration === 'invite') {
    return html`${field({ name: 'inviteCode', label: t('auth.inviteCode'), required: true, hint: t('auth.inviteHint'), errors, attrs: html`autocomplete="off" maxlength="200"` })}${requiredFields(policy, values, errors)}`;
  }
  if (policy.registration === 'domain') {
    return html`${requiredFields(policy, values, errors, { email: true })}${field({
      name: 'email',
      label: t('auth.email'),
      value: values.email ?? '',
      required: true,
      autocomplete: 'email',
      hint: t('auth.emailHint', policy.registrationEmailDomains.join(t('auth.or'))),
      errors,
      attrs: html`inputmode="email" maxlength="320"`,
    })}`;
  }
  return requiredFields(policy, values, errors);
}

function authForm(kind: 'signup' | 'login', values: AuthValues, errors: FieldErrors, policy: Policy) {
  const signup = kind === 'signup';
  const action = signup ? '/signup' : '/login';
  const nextQuery = values.next !== '/' ? `?next=${encodeURIComponent(values.next)}` : '';
  const badInvitation = signup && values.invitation && !values.invitation.link;
  return html`<h1>${signup ? t('auth.signUp') : t('auth.logIn')}</h1>
${badInvitation ? html`<p class="notice bad" role="alert" id="invitation-gone">${t('auth.invitationGone')}</p>` : ''}
${signup && values.invitation?.link ? html`<p class="notice" id="invitation">${t('auth.invited')}</p>` : ''}
${errorSummary(errors, labels())}
<form method="post" action="${action}" class="auth-form" id="${kind}-form" novalidate>
  <input type="hidden" name="next" value="${values.next}">
  ${field({
    name: 'username',
    label: t('auth.username'),
    value: values.username,
    required: true,
    autocomplete: 'username',
    hint: signup ? t('auth.usernameHint') : undefined,
    errors,
    attrs: html`autocapitalize="none" spellcheck="false" maxlength="64"`,
  })}
  ${field({
    name: 'password',
    label: t('auth.password'),
    type: 'password',
    required: true,
    autocomplete: signup ? 'new-password' : 'current-password',
    hint: signup ? t('auth.passwordHint', PASSWORD_MIN) : undefined,
    errors,
    attrs: html`maxlength="256"`,
  })}
  ${signup ? policyFields(policy, values, errors) : ''}
  <p><button type="submit">${signup ? t('auth.create') : t('auth.logIn')}</button></p>
</form>
<p>${signup ? th('auth.haveAccount_html', escapeHtml(`/login${nextQuery}`)) : th('auth.newHere_html', escapeHtml(`/signup${nextQuery}`))}</p>`;
}

export default async function authPages(fastify: FastifyInstance) {
  const app = typed(fastify);
  const { db, config } = app.deps;

  function sendAuthPage(request: FastifyRequest, reply: FastifyReply, kind: 'signup' | 'login', values: AuthValues, errors: FieldErrors = {}, status = 200) {
    const already = request.user ? html`<p class="notice">${th('auth.loggedInAs_html', escapeHtml(request.user.username))}</p>` : '';
    return sendPage(
      reply,
      {
        title: kind === 'signup' ? t('auth.signUp') : t('auth.logIn'),
        user: request.user,
        nav: `/${kind}`,
        body: html`${already}${authForm(kind, values, errors, config)}`,
      },
      status,
    );
  }

  /** The invitation a sign-up names (null link: wrong, used, expired or replaced). */
  const invitationOf = async (token: unknown): Promise<AuthValues['invitation']> => {
    if (typeof token !== 'string' || token === '') return undefined;
    const link = await findLink(db, token.slice(0, 100), 'invite');
    return { token: token.slice(0, 100), link: link?.kind === 'invite' ? link : null };
  };

  app.get('/signup', { config: { access: 'public' } }, async (request, reply) => {
    const invitation = await invitationOf(fields(request.query).invite);
    return sendAuthPage(
      request,
      reply,
      'signup',
      { username: '', next: safeNext(fields(request.query).next, '/submit'), ...(invitation ? { invitation } : {}) },
      {},
      invitation && !invitation.link ? 404 : 200,
    );
  });
  app.get('/login', { config: { access: 'public' } }, async (request, reply) =>
    sendAuthPage(request, reply, 'login', { username: '', next: safeNext(fields(request.query).next) }),
  );

  app.post('/signup', { config: { access: 'public' } }, async (request, reply) => {
    const body = fields(request.body);
    const username = str(body.username).trim();
    const password = str(body.password);
    const email = str(body.email).trim().slice(0, 320);
    const inviteCode = str(body.inviteCode).slice(0, 200);
    const studentId = str(body.studentId).trim().slice(0, 64);
    const fullName = str(body.fullName).trim().slice(0, 200);
    const invitation = await invitationOf(body.invitation);
    const next = safeNext(body.next, '/submit');
    const errors: FieldErrors = {};
    const again = { username, next, email, studentId, fullName, ...(invitation ? { invitation } : {}) };
    if (password.length > 256) errors.password = t('auth.passwordTooLong');
    if (Object.keys(errors).length === 0) {
      try {
        const user = await registerAccount(
          app.deps,
          { username, password, email, inviteCode, studentId, fullName, ...(invitation ? { invitation: invitation.token } : {}) },
          request.ip,
        );
        await openSession(app.deps, reply, user.id);
        return reply.redirect(next, 303);
      } catch (err) {
        const refused = asRefusal(err);
        if (!refused) throw err;
        if (err instanceof RetryLaterError) {
          void reply.header('retry-after', String(err.retryAfterSeconds));
          return sendAuthPage(
            request,
            reply,
            'signup',
            { username, next },
            { '': localizeRefusal({ ...refused, retryAfterSeconds: err.retryAfterSeconds }) },
            refused.statusCode,
          );
        }
        const fieldOf: Record<string, string> = {
          'weak-password': 'password',
          'invite-required': 'inviteCode',
          'bad-invite': 'inviteCode',
          'email-required': 'email',
          'bad-email': 'email',
          'email-domain': 'email',
          'student-id-required': 'studentId',
          'bad-student-id': 'studentId',
          'student-id-taken': 'studentId',
          'full-name-required': 'fullName',
          'bad-full-name': 'fullName',
          'not-found': '',
        };
        errors[fieldOf[refused.code ?? ''] ?? 'username'] = localizeRefusal(refused);
        return sendAuthPage(request, reply, 'signup', again, errors, refused.statusCode);
      }
    }
    return sendAuthPage(request, reply, 'signup', again, errors, 400);
  });

  app.post('/login', { config: { access: 'public' } }, async (request, reply) => {
    const body = fields(request.body);
    const username = str(body.username).trim();
    const password = str(body.password);
    const next = safeNext(body.next);
    const errors: FieldErrors = {};
    if (!username) errors.username = t('auth.enterUsername');
    if (!password) errors.password = t('auth.enterPassword');
    if (Object.keys(errors).length > 0) return sendAuthPage(request, reply, 'login', { username, next }, errors, 400);
    try {
      const user = await checkCredentials(
        app.deps,
        { username: username.slice(0, 64), password: password.slice(0, 256) },
        passwordClient(request, username.slice(0, 64)),
      );
      await rememberDevice(app.deps, request, reply, user.username);
      await openSession(app.deps, reply, user.id);
      return reply.redirect(next, 303);
    } catch (err) {
      const refused = asRefusal(err);
      if (err instanceof RetryLaterError) void reply.header('retry-after', String(err.retryAfterSeconds));
      else if (refused?.statusCode !== 401 && refused?.code !== 'account-disabled') throw err;
      // Not tied to one field: which of the two is wrong is not told.
      const retryAfterSeconds = err instanceof RetryLaterError ? err.retryAfterSeconds : undefined;
      return sendAuthPage(
        request,
        reply,
        'login',
        { username, next },
        { '': localizeRefusal({ ...refused!, ...(retryAfterSeconds ? { retryAfterSeconds } : {}) }) },
        refused!.statusCode,
      );
    }
  });

  app.post('/logout', { config: { access: 'public' } }, async (request, reply) => {
    await closeSession(db, request, reply);
    return reply.redirect('/', 303);
  });
}
