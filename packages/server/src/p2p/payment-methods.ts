// A user's P2P payment methods (bank, Alipay, WeChat with an optional QR image): list, add, edit, remove;
// ads and orders show them by id.
import type { P2pMethod, P2pPaymentMethod } from '@fairex/shared';
import { findUpload, uploadIdFrom } from '../accounts/uploads.ts';
import { AppError } from '../http/app-error.ts';
import { lockCounted } from '../store/counted-locks.ts';
import { p2pImageAddress } from './format.ts';
import type { P2pDeps } from './part.ts';
import type { P2pMerchants } from './merchants.ts';
import { P2pPart } from './part.ts';

/** Active payment methods one user may have. */
export const MAX_PAYMENT_METHODS = 10;

export type MethodRow = {
  id: number;
  user_id: number;
  method: P2pMethod;
  holder_name: string;
  account: string;
  bank_name: string;
  qr_upload_id: string | null;
  active: boolean;
};

export function methodView(row: MethodRow): P2pPaymentMethod {
  return {
    id: row.id,
    method: row.method,
    holder_name: row.holder_name,
    account: row.account,
    bank_name: row.bank_name,
    qr_image: row.qr_upload_id === null ? null : p2pImageAddress(row.qr_upload_id),
    active: row.active,
  };
}

/** A payment method as a user enters it (the QR image: an upload's address). */
type MethodInput = {
  method: P2pMethod;
  holder_name: string;
  account: string;
  bank_name?: string | undefined;
  qr_image?: string | undefined;
};

export class P2pPaymentMethods extends P2pPart {
  private readonly merchants: P2pMerchants;

  constructor(deps: P2pDeps, parts: { merchants: P2pMerchants }) {
    super(deps);
    this.merchants = parts.merchants;
  }

  async methods(userId: number): Promise<P2pPaymentMethod[]> {
    const { rows } = await this.db.query<MethodRow>(
      `select id, user_id, method, holder_name, account, bank_name, qr_upload_id, active
         from p2p_payment_methods where user_id = $1 and active order by id`,
      [userId],
    );
    return rows.map(methodView);
  }

  private async checkMethodInput(
    userId: number,
    input: { method: P2pMethod; holder_name: string; qr_image?: string | undefined },
  ): Promise<string | null> {
    const realName = await this.merchants.approvedRealName(this.db, userId);
    if (realName === null) throw new AppError('p2p.real_name_required');
    if (realName.trim() !== input.holder_name.trim()) throw new AppError('p2p.holder_mismatch');
    if (input.qr_image === undefined) return null;
    const id = uploadIdFrom(input.qr_image);
    const upload = id === null ? null : await findUpload(this.db, id);
    if (upload === null || upload.user_id !== userId) throw new AppError('upload.not_found');
    return upload.id;
  }

  async addMethod(userId: number, input: MethodInput): Promise<P2pPaymentMethod> {
    const qr = await this.checkMethodInput(userId, input);
    // Counted and inserted in one step under the user's lock: parallel adds count each other.
    const rows = await this.db.transaction(async (tx) => {
      await lockCounted(tx, [['p2p_payment_methods', userId]]);
      const { rows: count } = await tx.query<{ count: number }>(
        'select count(*)::int as count from p2p_payment_methods where user_id = $1 and active',
        [userId],
      );
      if ((count[0]?.count ?? 0) >= MAX_PAYMENT_METHODS) return null;
      const inserted = await tx.query<MethodRow>(
        `insert into p2p_payment_methods (user_id, method, holder_name, account, bank_name, qr_upload_id, created_ms)
         values ($1, $2, $3, $4, $5, $6, $7)
         returning id, user_id, method, holder_name, account, bank_name, qr_upload_id, active`,
        [userId, input.method, input.holder_name, input.account, input.bank_name ?? '', qr, this.now()],
      );
      return inserted.rows;
    });
    if (rows === null) throw new AppError('p2p.too_many');
    return methodView(rows[0] as MethodRow);
  }

  async editMethod(userId: number, input: MethodInput & { id: number }): Promise<P2pPaymentMethod> {
    const qr = await this.checkMethodInput(userId, input);
    // A method used by orders keeps its row: the edit retires it and adds the new one.
    const { rowCount } = await this.db.query(
      'update p2p_payment_methods set active = false where id = $1 and user_id = $2 and active',
      [input.id, userId],
    );
    if (rowCount !== 1) throw new AppError('p2p.method_not_found');
    const { rows } = await this.db.query<MethodRow>(
      `insert into p2p_payment_methods (user_id, method, holder_name, account, bank_name, qr_upload_id, created_ms)
       values ($1, $2, $3, $4, $5, $6, $7)
       returning id, user_id, method, holder_name, account, bank_name, qr_upload_id, active`,
      [userId, input.method, input.holder_name, input.account, input.bank_name ?? '', qr, this.now()],
    );
    return methodView(rows[0] as MethodRow);
  }

  async deleteMethod(userId: number, id: number): Promise<void> {
    const { rowCount } = await this.db.query(
      'update p2p_payment_methods set active = false where id = $1 and user_id = $2 and active',
      [id, userId],
    );
    if (rowCount !== 1) throw new AppError('p2p.method_not_found');
  }

  async methodsById(ids: readonly number[]): Promise<Map<number, MethodRow>> {
    const found = new Map<number, MethodRow>();
    if (ids.length === 0) return found;
    const { rows } = await this.db.query<MethodRow>(
      `select id, user_id, method, holder_name, account, bank_name, qr_upload_id, active
         from p2p_payment_methods where id = any($1::int[])`,
      [[...new Set(ids)]],
    );
    for (const row of rows) found.set(row.id, row);
    return found;
  }
}
