// Bad input for every account call: missing fields, wrong types, too long, wrong patterns, wrong, expired
// and reused codes, and another user's data. Each gets a translated error and changes nothing (users,
// sessions, code use, messages sent, uploads, submissions, administrators, invite codes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Language, MessageKey, MessageParams } from '@fairex/shared';
import { fieldName, translate } from '@fairex/shared';
import { removeTempDirs } from '../helper.ts';
import type { AccountsTestApp, RegisteredUser } from './helpers.ts';
import {
  accountsApp,
  call,
  freshIp,
  lastCode,
  PASSWORD,
  registerByEmail,
  uniqueEmail,
  uploadFile,
} from './helpers.ts';
import { makePng } from './images.ts';

let test: AccountsTestApp;
let alice: RegisteredUser;
let bob: RegisteredUser;
let alicePhotos: string[];
let bobPhoto: string;
const free = { email: '', code: '' };
const expired = { email: '', code: '' };
const aliceForget = { code: '' };
const bobUsedForget = { code: '' };
const aliceBind = { email: '', code: '' };
const mobileFree = { national: '13700137003', code: '' };

async function fingerprint(): Promise<string> {
  const { rows } = await test.store.query(`select
    (select json_agg(u order by u.id) from (select id, account, email, phone, area_code, password_hash, review_status,
       totp_secret, totp_pending_secret, parent_id from users) u)::text as users,
    (select count(*)::int from sessions where revoked_at is null) as sessions,
    (select json_agg(c order by c.id) from (select id, consumed_at, expires_at from verification_codes) c)::text as codes,
    (select count(*)::int from outbound_messages) as messages,
    (select count(*)::int from uploads) as uploads,
    (select json_agg(r order by r.id) from real_name_submissions r)::text as submissions,
    (select count(*)::int from admins) as admins,
    (select json_agg(o order by o.code) from operator_invite_codes o)::text as invites`);
  return JSON.stringify(rows[0]);
}

beforeAll(async () => {
  test = await accountsApp();
  alice = await registerByEmail(test);
  bob = await registerByEmail(test);
  alicePhotos = [];
  for (const colour of [10, 20, 30] as const) {
    const reply = await uploadFile(test.app, alice.token, makePng(100, 80, [colour, colour, colour]));
    alicePhotos.push(reply.message as string);
  }
  bobPhoto = (await uploadFile(test.app, bob.token, makePng(90, 90))).message as string;

  free.email = uniqueEmail('free');
  await call(test.app, '/sms_mail', { user_string: free.email, type: 'register' });
  free.code = await lastCode(test.store, free.email);

  expired.email = uniqueEmail('expired');
  await call(test.app, '/sms_mail', { user_string: expired.email });
  expired.code = await lastCode(test.store, expired.email);
  await test.store.query(
    `update verification_codes set expires_at = now() - interval '1 minute' where destination = $1`,
    [expired.email],
  );

  await call(test.app, '/sms_mail', { user_string: alice.account, type: 'forget' });
  aliceForget.code = await lastCode(test.store, alice.account);

  await call(test.app, '/sms_mail', { user_string: bob.account, type: 'forget' });
  bobUsedForget.code = await lastCode(test.store, bob.account);
  const reset = await call(test.app, '/user/forget', {
    account: bob.account,
    code: bobUsedForget.code,
    password: PASSWORD,
    repassword: PASSWORD,
  });
  expect(reset.type).toBe('ok');
  bob.token = String(
    (await call(test.app, '/user/login', { account: bob.account, password: PASSWORD })).message,
  );

  aliceBind.email = uniqueEmail('alicebind');
  await call(test.app, '/sms_mail', { user_string: aliceBind.email, type: 'bind' }, { token: alice.token });
  aliceBind.code = await lastCode(test.store, aliceBind.email);

  await call(test.app, '/sms_send', { user_string: mobileFree.national, area_code: '86' });
  mobileFree.code = await lastCode(test.store, `+86${mobileFree.national}`);
});

afterAll(async () => {
  await test?.close();
  await removeTempDirs();
});

interface Case {
  name: string;
  url: string;
  payload: () => Record<string, unknown>;
  token?: () => string;
  expect: [MessageKey, MessageParams?, string?];
}

const required = (field: string): Case['expect'] => ['validation.required', {}, field];
const tooLong = (field: string, min: number, max: number): Case['expect'] => [
  'validation.text_length',
  { min, max },
  field,
];
const long = (length: number) => 'a'.repeat(length);
const registerBase = () => ({
  type: 'email',
  user_string: free.email,
  code: free.code,
  password: 'valid123',
  re_password: 'valid123',
});
const forgetBase = () => ({
  account: alice.account,
  code: aliceForget.code,
  password: 'valid123',
  repassword: 'valid123',
});
const aliceToken = () => alice.token;

const cases: Case[] = [
  // user/check
  { name: 'check: nothing', url: '/user/check', payload: () => ({}), expect: ['account.account_required'] },
  {
    name: 'check: array',
    url: '/user/check',
    payload: () => ({ user_string: ['a@b.cc'] }),
    expect: ['validation.invalid', {}, 'user_string'],
  },
  {
    name: 'check: too long',
    url: '/user/check',
    payload: () => ({ user_string: `${long(120)}@x.io` }),
    expect: tooLong('user_string', 1, 120),
  },
  {
    name: 'check: bad e-mail',
    url: '/user/check',
    payload: () => ({ user_string: 'a@b' }),
    expect: ['account.email_invalid'],
  },
  {
    name: 'check: bad phone',
    url: '/user/check',
    payload: () => ({ user_string: '12345', area_code: '86' }),
    expect: ['account.mobile_invalid'],
  },
  {
    name: 'check: bad area code',
    url: '/user/check',
    payload: () => ({ user_string: '13800138000', area_code: '999' }),
    expect: ['account.area_code_invalid'],
  },
  {
    name: 'check: taken',
    url: '/user/check',
    payload: () => ({ user_string: alice.account }),
    expect: ['account.email_taken'],
  },
  // sms_mail / sms_send
  { name: 'sms_mail: nothing', url: '/sms_mail', payload: () => ({}), expect: ['account.account_required'] },
  {
    name: 'sms_mail: object',
    url: '/sms_mail',
    payload: () => ({ user_string: { a: 1 } }),
    expect: ['validation.invalid', {}, 'user_string'],
  },
  {
    name: 'sms_mail: not an e-mail',
    url: '/sms_mail',
    payload: () => ({ user_string: 'someone' }),
    expect: ['account.email_invalid'],
  },
  {
    name: 'sms_mail: too long',
    url: '/sms_mail',
    payload: () => ({ user_string: long(121) }),
    expect: tooLong('user_string', 1, 120),
  },
  {
    name: 'sms_mail: registered',
    url: '/sms_mail',
    payload: () => ({ user_string: alice.account }),
    expect: ['account.email_taken'],
  },
  {
    name: 'sms_mail: forget unknown',
    url: '/sms_mail',
    payload: () => ({ user_string: uniqueEmail('none'), type: 'forget' }),
    expect: ['account.not_found'],
  },
  {
    name: 'sms_mail: bad purpose',
    url: '/sms_mail',
    payload: () => ({ user_string: uniqueEmail('p'), type: 'admin' }),
    expect: ['code.purpose_invalid'],
  },
  {
    name: 'sms_mail: bind visitor',
    url: '/sms_mail',
    payload: () => ({ user_string: uniqueEmail('b'), type: 'bind' }),
    expect: ['auth.login_required'],
  },
  {
    name: 'sms_mail: bind own',
    url: '/sms_mail',
    token: aliceToken,
    payload: () => ({ user_string: alice.account, type: 'bind' }),
    expect: ['account.already_bound'],
  },
  {
    name: 'sms_mail: bind other user',
    url: '/sms_mail',
    token: aliceToken,
    payload: () => ({ user_string: bob.account, type: 'bind' }),
    expect: ['account.email_taken'],
  },
  { name: 'sms_send: nothing', url: '/sms_send', payload: () => ({}), expect: ['account.account_required'] },
  {
    name: 'sms_send: letters',
    url: '/sms_send',
    payload: () => ({ user_string: 'abcdefg', area_code: '86' }),
    expect: ['account.mobile_invalid'],
  },
  {
    name: 'sms_send: short',
    url: '/sms_send',
    payload: () => ({ user_string: '138001', area_code: '86' }),
    expect: ['account.mobile_invalid'],
  },
  {
    name: 'sms_send: area',
    url: '/sms_send',
    payload: () => ({ user_string: '13800138000', area_code: 'ZZ' }),
    expect: ['account.area_code_invalid'],
  },
  {
    name: 'sms_send: long area',
    url: '/sms_send',
    payload: () => ({ user_string: '13800138000', area_code: '123456' }),
    expect: tooLong('area_code', 1, 5),
  },
  // check_email / check_mobile
  {
    name: 'check_email: no code',
    url: '/user/check_email',
    payload: () => ({ user_string: free.email }),
    expect: ['validation.required', {}, 'email_code'],
  },
  {
    name: 'check_email: letters',
    url: '/user/check_email',
    payload: () => ({ user_string: free.email, email_code: 'abcdef' }),
    expect: ['code.format', {}, 'email_code'],
  },
  {
    name: 'check_email: wrong',
    url: '/user/check_email',
    payload: () => ({ user_string: free.email, email_code: free.code === '000000' ? '111111' : '000000' }),
    expect: ['code.wrong', { left: 4 }],
  },
  {
    name: 'check_email: expired',
    url: '/user/check_email',
    payload: () => ({ user_string: expired.email, email_code: expired.code }),
    expect: ['code.expired'],
  },
  {
    name: 'check_email: reused',
    url: '/user/check_email',
    payload: () => ({ user_string: bob.account, email_code: bobUsedForget.code, type: 'forget' }),
    expect: ['code.used'],
  },
  {
    name: 'check_email: never sent',
    url: '/user/check_email',
    payload: () => ({ user_string: uniqueEmail('n'), email_code: '123456' }),
    expect: ['code.not_sent'],
  },
  {
    name: 'check_email: other purpose',
    url: '/user/check_email',
    payload: () => ({ user_string: free.email, email_code: free.code, type: 'forget' }),
    expect: ['code.not_sent'],
  },
  {
    name: 'check_mobile: wrong',
    url: '/user/check_mobile',
    payload: () => ({
      user_string: mobileFree.national,
      area_code: '86',
      mobile_code: mobileFree.code === '000000' ? '111111' : '000000',
    }),
    expect: ['code.wrong', { left: 4 }],
  },
  {
    name: 'check_mobile: other country',
    url: '/user/check_mobile',
    payload: () => ({ user_string: '2025550111', area_code: '1', mobile_code: mobileFree.code }),
    expect: ['code.not_sent'],
  },
  // register
  {
    name: 'register: no code',
    url: '/user/register',
    payload: () => ({ ...registerBase(), code: '' }),
    expect: required('code'),
  },
  {
    name: 'register: no password',
    url: '/user/register',
    payload: () => ({ ...registerBase(), password: undefined }),
    expect: required('password'),
  },
  {
    name: 'register: short password',
    url: '/user/register',
    payload: () => ({ ...registerBase(), password: 'ab1', re_password: 'ab1' }),
    expect: ['account.password_rule'],
  },
  {
    name: 'register: long password',
    url: '/user/register',
    payload: () => ({ ...registerBase(), password: `a1${long(15)}`, re_password: `a1${long(15)}` }),
    expect: ['account.password_rule'],
  },
  {
    name: 'register: no digit',
    url: '/user/register',
    payload: () => ({ ...registerBase(), password: 'abcdefgh', re_password: 'abcdefgh' }),
    expect: ['account.password_rule'],
  },
  {
    name: 'register: number password',
    url: '/user/register',
    payload: () => ({ ...registerBase(), password: 12345678, re_password: 12345678 }),
    expect: ['account.password_rule'],
  },
  {
    name: 'register: mismatch',
    url: '/user/register',
    payload: () => ({ ...registerBase(), re_password: 'valid124' }),
    expect: ['account.password_mismatch'],
  },
  {
    name: 'register: bad invite',
    url: '/user/register',
    payload: () => ({ ...registerBase(), extension_code: 'has space' }),
    expect: ['account.invite_invalid', {}, 'extension_code'],
  },
  {
    name: 'register: unknown invite',
    url: '/user/register',
    payload: () => ({ ...registerBase(), extension_code: 'ZZZZ9999' }),
    expect: ['account.invite_invalid'],
  },
  {
    name: 'register: wrong code',
    url: '/user/register',
    payload: () => ({ ...registerBase(), code: free.code === '999999' ? '888888' : '999999' }),
    expect: ['code.wrong', { left: 3 }],
  },
  {
    name: 'register: expired code',
    url: '/user/register',
    payload: () => ({ ...registerBase(), user_string: expired.email, code: expired.code }),
    expect: ['code.expired'],
  },
  {
    name: "register: another address's code",
    url: '/user/register',
    payload: () => ({ ...registerBase(), user_string: uniqueEmail('x') }),
    expect: ['code.not_sent'],
  },
  {
    name: 'register: taken',
    url: '/user/register',
    payload: () => ({ ...registerBase(), user_string: alice.account }),
    expect: ['account.email_taken'],
  },
  {
    name: 'register: bad type',
    url: '/user/register',
    payload: () => ({ ...registerBase(), type: 'fax' }),
    expect: ['validation.one_of', { values: 'email, mobile' }, 'type'],
  },
  // login
  {
    name: 'login: no password',
    url: '/user/login',
    payload: () => ({ account: alice.account }),
    expect: required('password'),
  },
  {
    name: 'login: no account',
    url: '/user/login',
    payload: () => ({ password: PASSWORD }),
    expect: ['account.account_required'],
  },
  {
    name: 'login: wrong password',
    url: '/user/login',
    payload: () => ({ account: alice.account, password: 'wrong999' }),
    expect: ['account.login_failed'],
  },
  {
    name: 'login: unknown account',
    url: '/user/login',
    payload: () => ({ account: uniqueEmail('ghost'), password: PASSWORD }),
    expect: ['account.login_failed'],
  },
  {
    name: "login: another user's password",
    url: '/user/login',
    payload: () => ({ type: 'email', email: bob.account, password: 'valid123' }),
    expect: ['account.login_failed'],
  },
  {
    name: 'login: long password',
    url: '/user/login',
    payload: () => ({ account: alice.account, password: long(129) }),
    expect: tooLong('password', 1, 128),
  },
  {
    name: 'login: bad totp',
    url: '/user/login',
    payload: () => ({ account: alice.account, password: PASSWORD, totp_code: '12ab56' }),
    expect: ['totp.required', {}, 'totp_code'],
  },
  // forget
  {
    name: 'forget: no code',
    url: '/user/forget',
    payload: () => ({ ...forgetBase(), code: undefined }),
    expect: required('code'),
  },
  {
    name: 'forget: no repeat',
    url: '/user/forget',
    payload: () => ({ ...forgetBase(), repassword: undefined }),
    expect: required('repassword'),
  },
  {
    name: 'forget: mismatch',
    url: '/user/forget',
    payload: () => ({ ...forgetBase(), repassword: 'valid999' }),
    expect: ['account.password_mismatch'],
  },
  {
    name: 'forget: weak',
    url: '/user/forget',
    payload: () => ({ ...forgetBase(), password: '123456', repassword: '123456' }),
    expect: ['account.password_rule'],
  },
  {
    name: 'forget: unknown',
    url: '/user/forget',
    payload: () => ({ ...forgetBase(), account: uniqueEmail('q') }),
    expect: ['account.not_found'],
  },
  {
    name: 'forget: wrong code',
    url: '/user/forget',
    payload: () => ({ ...forgetBase(), code: aliceForget.code === '123123' ? '321321' : '123123' }),
    expect: ['code.wrong', { left: 4 }],
  },
  {
    name: 'forget: reused code',
    url: '/user/forget',
    payload: () => ({ ...forgetBase(), account: bob.account, code: bobUsedForget.code }),
    expect: ['code.used'],
  },
  {
    name: "forget: another user's code",
    url: '/user/forget',
    payload: () => ({ ...forgetBase(), account: bob.account }),
    expect: ['code.used'],
  },
  {
    name: 'forget: register code',
    url: '/user/forget',
    payload: () => ({ ...forgetBase(), account: free.email, code: free.code }),
    expect: ['account.not_found'],
  },
  // safe/email and safe/mobile
  {
    name: 'safe/email: no e-mail',
    url: '/safe/email',
    token: aliceToken,
    payload: () => ({ code: aliceBind.code }),
    expect: required('email'),
  },
  {
    name: 'safe/email: bad e-mail',
    url: '/safe/email',
    token: aliceToken,
    payload: () => ({ email: 'x@y', code: aliceBind.code }),
    expect: ['account.email_invalid'],
  },
  {
    name: 'safe/email: no code',
    url: '/safe/email',
    token: aliceToken,
    payload: () => ({ email: aliceBind.email }),
    expect: required('code'),
  },
  {
    name: 'safe/email: wrong code',
    url: '/safe/email',
    token: aliceToken,
    payload: () => ({ email: aliceBind.email, code: aliceBind.code === '101010' ? '202020' : '101010' }),
    expect: ['code.wrong', { left: 4 }],
  },
  {
    name: "safe/email: bob's address",
    url: '/safe/email',
    token: aliceToken,
    payload: () => ({ email: bob.account, code: aliceBind.code }),
    expect: ['account.email_taken'],
  },
  {
    name: 'safe/email: register code',
    url: '/safe/email',
    token: aliceToken,
    payload: () => ({ email: free.email, code: free.code }),
    expect: ['code.not_sent'],
  },
  {
    name: "safe/email: bob binds alice's code",
    url: '/safe/email',
    token: () => bob.token,
    payload: () => ({ email: aliceBind.email, code: aliceBind.code }),
    expect: ['code.not_sent'],
  },
  {
    name: 'safe/mobile: bad number',
    url: '/safe/mobile',
    token: aliceToken,
    payload: () => ({ mobile: '99', area_code: '86', code: '123456' }),
    expect: ['account.mobile_invalid'],
  },
  {
    name: 'safe/mobile: register code',
    url: '/safe/mobile',
    token: aliceToken,
    payload: () => ({ mobile: mobileFree.national, area_code: '86', code: mobileFree.code }),
    expect: ['code.not_sent'],
  },
  // safe/password
  {
    name: 'password: no old',
    url: '/safe/password',
    token: aliceToken,
    payload: () => ({ password: 'valid123', re_password: 'valid123' }),
    expect: required('old_password'),
  },
  {
    name: 'password: wrong old',
    url: '/safe/password',
    token: aliceToken,
    payload: () => ({ old_password: 'nope1234', password: 'valid123', re_password: 'valid123' }),
    expect: ['account.password_wrong'],
  },
  {
    name: 'password: mismatch',
    url: '/safe/password',
    token: aliceToken,
    payload: () => ({ old_password: PASSWORD, password: 'valid123', re_password: 'valid321' }),
    expect: ['account.password_mismatch'],
  },
  {
    name: 'password: weak',
    url: '/safe/password',
    token: aliceToken,
    payload: () => ({ old_password: PASSWORD, password: 'aaaaaa', re_password: 'aaaaaa' }),
    expect: ['account.password_rule'],
  },
  {
    name: 'password: unchanged',
    url: '/safe/password',
    token: aliceToken,
    payload: () => ({ old_password: PASSWORD, password: PASSWORD, re_password: PASSWORD }),
    expect: ['account.password_unchanged'],
  },
  // two-factor
  {
    name: 'google/bind: not started',
    url: '/safe/google/bind',
    token: aliceToken,
    payload: () => ({ code: '123456' }),
    expect: ['totp.not_started'],
  },
  {
    name: 'google/bind: letters',
    url: '/safe/google/bind',
    token: aliceToken,
    payload: () => ({ code: 'abcdef' }),
    expect: ['totp.required', {}, 'code'],
  },
  {
    name: 'google/unbind: not on',
    url: '/safe/google/unbind',
    token: aliceToken,
    payload: () => ({ code: '123456', password: PASSWORD }),
    expect: ['totp.not_on'],
  },
  // real_name
  {
    name: 'real_name: no name',
    url: '/user/real_name',
    token: aliceToken,
    payload: () => ({
      card_id: 'A1234567',
      front_pic: alicePhotos[0],
      reverse_pic: alicePhotos[1],
      hand_pic: alicePhotos[2],
    }),
    expect: required('name'),
  },
  {
    name: 'real_name: long name',
    url: '/user/real_name',
    token: aliceToken,
    payload: () => ({
      name: long(101),
      card_id: 'A1234567',
      front_pic: alicePhotos[0],
      reverse_pic: alicePhotos[1],
      hand_pic: alicePhotos[2],
    }),
    expect: tooLong('name', 1, 100),
  },
  {
    name: 'real_name: card characters',
    url: '/user/real_name',
    token: aliceToken,
    payload: () => ({
      name: 'Alice',
      card_id: 'A12 34<5>',
      front_pic: alicePhotos[0],
      reverse_pic: alicePhotos[1],
      hand_pic: alicePhotos[2],
    }),
    expect: ['real_name.card_id_invalid', {}, 'card_id'],
  },
  {
    name: 'real_name: no photo',
    url: '/user/real_name',
    token: aliceToken,
    payload: () => ({
      name: 'Alice',
      card_id: 'A1234567',
      front_pic: alicePhotos[0],
      reverse_pic: alicePhotos[1],
    }),
    expect: required('hand_pic'),
  },
  {
    name: 'real_name: unknown photo',
    url: '/user/real_name',
    token: aliceToken,
    payload: () => ({
      name: 'Alice',
      card_id: 'A1234567',
      front_pic: alicePhotos[0],
      reverse_pic: alicePhotos[1],
      hand_pic: '/api/upload/image?id=00000000000000000000000000000000',
    }),
    expect: ['upload.not_found'],
  },
  {
    name: 'real_name: not an address',
    url: '/user/real_name',
    token: aliceToken,
    payload: () => ({
      name: 'Alice',
      card_id: 'A1234567',
      front_pic: alicePhotos[0],
      reverse_pic: alicePhotos[1],
      hand_pic: 'javascript:alert(1)',
    }),
    expect: ['upload.not_found'],
  },
  {
    name: "real_name: bob's photo",
    url: '/user/real_name',
    token: aliceToken,
    payload: () => ({
      name: 'Alice',
      card_id: 'A1234567',
      front_pic: alicePhotos[0],
      reverse_pic: alicePhotos[1],
      hand_pic: bobPhoto,
    }),
    expect: ['upload.not_found'],
  },
  {
    name: 'real_name: same photo',
    url: '/user/real_name',
    token: aliceToken,
    payload: () => ({
      name: 'Alice',
      card_id: 'A1234567',
      front_pic: alicePhotos[0],
      reverse_pic: alicePhotos[0],
      hand_pic: alicePhotos[2],
    }),
    expect: ['real_name.same_photo'],
  },
  // administrators
  { name: 'admin/login: nothing', url: '/admin/login', payload: () => ({}), expect: required('username') },
  {
    name: 'admin/login: unknown',
    url: '/admin/login',
    payload: () => ({ username: 'nobody', password: 'whatever-long-1' }),
    expect: ['account.login_failed'],
  },
  {
    name: 'admin/login: user token is no admin',
    url: '/admin/real_name/approve',
    token: aliceToken,
    payload: () => ({ id: 1 }),
    expect: ['admin.login_required'],
  },
];

const LANGUAGES: Language[] = ['en', 'zh', 'hk', 'kr', 'jp'];

describe('bad input to the account calls', () => {
  it.each(
    cases.map((entry, index) => [entry.name, entry, LANGUAGES[index % LANGUAGES.length] ?? 'en'] as const),
  )('%s', async (_name, entry, lang) => {
    const before = await fingerprint();
    const reply = await call(test.app, entry.url, entry.payload(), {
      lang,
      ip: freshIp(),
      ...(entry.token ? { token: entry.token() } : {}),
    });
    const [key, params = {}, field] = entry.expect;
    const expected = translate(
      lang,
      key,
      field === undefined ? params : { ...params, field: fieldName(lang, field) },
    );
    expect(reply.message).toBe(expected);
    expect(reply.type).toBe(
      key === 'auth.login_required' || key === 'admin.login_required' ? '999' : 'error',
    );
    expect(await fingerprint()).toBe(before);
  });

  it('covers every account call', () => {
    const urls = new Set(cases.map((entry) => entry.url));
    for (const url of [
      '/user/check',
      '/sms_send',
      '/sms_mail',
      '/user/check_email',
      '/user/check_mobile',
      '/user/register',
      '/user/login',
      '/user/forget',
      '/safe/email',
      '/safe/mobile',
      '/safe/password',
      '/safe/google/bind',
      '/safe/google/unbind',
      '/user/real_name',
      '/admin/login',
    ]) {
      expect(urls.has(url), url).toBe(true);
    }
  });

  it('leaves the good codes usable after all the bad tries', async () => {
    const registered = await call(test.app, '/user/register', {
      ...registerBase(),
      password: PASSWORD,
      re_password: PASSWORD,
    });
    // Two wrong tries were made against this code above, so it still works.
    expect(registered.type).toBe('ok');
  });
});
