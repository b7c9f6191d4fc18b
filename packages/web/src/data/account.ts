// The account centre's calls: the real-name status (user/center), photo uploads, the real-name submission,
// two-factor enrolment, phone and e-mail binding, and the password change.
import { useQuery } from '@tanstack/react-query';
import type { PasswordChanged, RealNameCenter, TotpSecret } from '@fairex/shared/api/account.ts';
import { api } from './api.ts';
import { apiAddress } from './api-base.ts';
import { sessionStore, useSession } from './session.ts';

export type { PasswordChanged, RealNameCenter, TotpSecret as TotpEnrolment };

export const CENTER_KEY = ['user', 'center'] as const;

export function useRealNameCenter() {
  const token = useSession((state) => state.token);
  return useQuery({
    queryKey: [...CENTER_KEY, token],
    queryFn: () => api.get<RealNameCenter>('/user/center'),
    enabled: token !== null,
  });
}

/** Uploads one image; the answer is its private address. */
export function uploadImage(file: File): Promise<string> {
  const body = new FormData();
  body.append('file', file);
  return api.post<string>('/upload', body);
}

/**
 * An uploaded image for display. Private images need the token, which an <img> cannot send, so the bytes
 * are fetched and shown through an object URL (to be revoked by the caller).
 */
export async function fetchImageUrl(address: string): Promise<string> {
  const token = sessionStore.getState().token;
  const response = await fetch(apiAddress(address), {
    headers: token === null ? {} : { Authorization: token },
  });
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !type.startsWith('image/')) throw new Error('image unavailable');
  return URL.createObjectURL(await response.blob());
}

export function submitRealName(input: {
  name: string;
  cardId: string;
  front: string;
  reverse: string;
  hand: string;
}): Promise<string> {
  return api.post<string>('/user/real_name', {
    name: input.name.trim(),
    card_id: input.cardId.trim(),
    front_pic: input.front,
    reverse_pic: input.reverse,
    hand_pic: input.hand,
  });
}

export function startTotp(): Promise<TotpSecret> {
  return api.post<TotpSecret>('/safe/google/secret');
}

export function confirmTotp(code: string): Promise<string> {
  return api.post<string>('/safe/google/bind', { code: code.trim() });
}

export function disableTotp(code: string, password: string): Promise<string> {
  return api.post<string>('/safe/google/unbind', { code: code.trim(), password });
}

export function bindMobile(input: { areaCode: string; mobile: string; code: string }): Promise<string> {
  return api.post<string>('/safe/mobile', {
    area_code: input.areaCode,
    mobile: input.mobile.trim(),
    code: input.code.trim(),
  });
}

export function bindEmail(input: { email: string; code: string }): Promise<string> {
  return api.post<string>('/safe/email', { email: input.email.trim(), code: input.code.trim() });
}

export function changePassword(input: {
  oldPassword: string;
  password: string;
  rePassword: string;
}): Promise<PasswordChanged> {
  return api.post<PasswordChanged>('/safe/password', {
    old_password: input.oldPassword,
    password: input.password,
    re_password: input.rePassword,
  });
}
