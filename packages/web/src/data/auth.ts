// The account calls of specs 01/02 as the screens use them. Answers follow the server's envelope; the
// shapes here are what packages/server/src/routes/api/user, safe and sms answer.
import { useQuery } from '@tanstack/react-query';
import type { Country, LoginOk, LoginTotpRequired, RegisterConfig, UserInfo } from '@fairex/shared';
import { api, apiRaw, readEnvelope } from './api.ts';
import { currentLanguage } from '../i18n/index.ts';
import { useSession } from './session.ts';

export type AccountKind = 'email' | 'mobile';
export type CodePurpose = 'register' | 'forget' | 'bind';

export type { UserInfo };

export type { Country };

/** The account a form names: an e-mail, or a phone number with its calling code. */
export type AccountTarget =
  { kind: 'email'; email: string } | { kind: 'mobile'; areaCode: string; mobile: string };

function targetFields(target: AccountTarget): Record<string, string> {
  return target.kind === 'email'
    ? { type: 'email', user_string: target.email.trim() }
    : { type: 'mobile', user_string: target.mobile.trim(), area_code: target.areaCode };
}

export function checkAccount(target: AccountTarget): Promise<string> {
  return api.post<string>('/user/check', targetFields(target));
}

export function sendCode(target: AccountTarget, purpose: CodePurpose): Promise<string> {
  if (target.kind === 'email')
    return api.post<string>('/sms_mail', { user_string: target.email.trim(), type: purpose });
  return api.post<string>('/sms_send', {
    user_string: target.mobile.trim(),
    country_code: target.areaCode,
    type: purpose,
  });
}

export function checkCode(target: AccountTarget, code: string, purpose: CodePurpose): Promise<string> {
  const fields = { ...targetFields(target), type: purpose };
  return target.kind === 'email'
    ? api.post<string>('/user/check_email', { ...fields, email_code: code.trim() })
    : api.post<string>('/user/check_mobile', { ...fields, mobile_code: code.trim() });
}

export interface RegisterInput {
  target: AccountTarget;
  code: string;
  password: string;
  rePassword: string;
  inviteCode: string;
}

export function register(input: RegisterInput): Promise<string> {
  return api.post<string>('/user/register', {
    ...targetFields(input.target),
    code: input.code.trim(),
    password: input.password,
    re_password: input.rePassword,
    extension_code: input.inviteCode.trim(),
  });
}

export type LoginReply = LoginOk['data'] | Pick<LoginTotpRequired, 'totp_required'>;

/**
 * The dialog names the account by kind; the login page sends the typed account as it is. The server
 * answers the token as the message (for template-era clients) and again with the user under `data`; an
 * account with two-factor on is refused with `totp_required`, and the form then asks for the code.
 */
export async function login(
  input: ({ target: AccountTarget } | { account: string }) & { password: string; totpCode?: string },
): Promise<LoginReply> {
  const named =
    'target' in input
      ? input.target.kind === 'email'
        ? { type: 'email', email: input.target.email.trim() }
        : { type: 'mobile', mobile: input.target.mobile.trim(), area_code_id: input.target.areaCode }
      : { account: input.account.trim() };
  const { status, body } = await apiRaw('/user/login', {
    method: 'POST',
    body: { ...named, password: input.password, totp_code: input.totpCode },
  });
  if ((body as Partial<LoginTotpRequired> | null)?.totp_required === true) return { totp_required: true };
  readEnvelope(body, status);
  return (body as LoginOk).data;
}

/**
 * Revokes the session on the server. Read without the envelope handling: a token the server already
 * forgot answers 999, which here must not open the login dialog.
 */
export async function logout(): Promise<void> {
  await apiRaw('/user/logout', { method: 'POST', body: {} });
}

export function resetPassword(input: {
  target: AccountTarget;
  code: string;
  password: string;
  rePassword: string;
}): Promise<string> {
  return api.post<string>('/user/forget', {
    ...targetFields(input.target),
    code: input.code.trim(),
    password: input.password,
    repassword: input.rePassword,
  });
}

export function fetchUserInfo(): Promise<UserInfo> {
  return api.get<UserInfo>('/user/info');
}

export const USER_INFO_KEY = ['user', 'info'] as const;

/** The logged-in user's info; idle for visitors. */
export function useUserInfo() {
  const token = useSession((state) => state.token);
  return useQuery({ queryKey: [...USER_INFO_KEY, token], queryFn: fetchUserInfo, enabled: token !== null });
}

/** The country list in the interface language (names from the server's Intl data). */
export function useCountries() {
  return useQuery({
    queryKey: ['user', 'countries', currentLanguage()],
    queryFn: () => api.get<Country[]>('/user/countries'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Whether this exchange requires an invite code to register (INVITE_CODE_REQUIRED on the server). */
export function useRegisterConfig() {
  return useQuery({
    queryKey: ['user', 'register_config'],
    queryFn: () => api.get<RegisterConfig>('/user/register_config'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
