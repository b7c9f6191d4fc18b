// An order's room: the chat between its two parties (messages and images), and the images themselves,
// readable only by the order's parties.
import type { P2pMessage } from '@fairex/shared';
import { findUpload, readUploadFile, saveUpload, uploadIdFrom } from '../accounts/uploads.ts';
import type { StoredUpload } from '../accounts/uploads.ts';
import { AppError } from '../http/app-error.ts';
import { p2pImageAddress } from './format.ts';
import { statusOf } from './order-rows.ts';
import type { P2pDeps } from './part.ts';
import type { P2pOrders } from './orders.ts';
import { P2pPart } from './part.ts';

export class P2pOrderRoom extends P2pPart {
  private readonly orders: P2pOrders;

  constructor(deps: P2pDeps, parts: { orders: P2pOrders }) {
    super(deps);
    this.orders = parts.orders;
  }

  async messages(userId: number, orderId: number, after: number): Promise<P2pMessage[]> {
    await this.orders.partyRow(userId, orderId);
    const messages = await this.messageRows(orderId, after);
    const last = messages.at(-1);
    if (last !== undefined)
      await this.db.query(
        `insert into p2p_message_reads (order_id, user_id, last_id) values ($1, $2, $3)
         on conflict (order_id, user_id) do update set last_id = greatest(p2p_message_reads.last_id, excluded.last_id)`,
        [orderId, userId, last.id],
      );
    return messages;
  }

  async messageRows(orderId: number, after: number): Promise<P2pMessage[]> {
    const { rows } = await this.db.query<{
      id: string;
      sender: number;
      body: string;
      upload_id: string | null;
      created_ms: string;
    }>(
      `select id::text, sender, body, upload_id, created_ms::text from p2p_messages
        where order_id = $1 and id > $2 order by id limit 500`,
      [orderId, after],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      order_id: orderId,
      from: row.sender,
      text: row.body,
      image: row.upload_id === null ? null : p2pImageAddress(row.upload_id),
      created_time: Number(row.created_ms),
    }));
  }

  async sendMessage(
    userId: number,
    input: { id: number; text?: string | undefined; image?: string | undefined },
  ): Promise<P2pMessage> {
    const row = await this.orders.partyRow(userId, input.id);
    if (input.text === undefined && input.image === undefined) throw new AppError('p2p.message_empty');
    let uploadId: string | null = null;
    if (input.image !== undefined) {
      const id = uploadIdFrom(input.image);
      const upload = id === null ? null : await findUpload(this.db, id);
      if (upload === null || upload.user_id !== userId) throw new AppError('upload.not_found');
      uploadId = upload.id;
    }
    const now = this.now();
    const { rows } = await this.db.query<{ id: string }>(
      `insert into p2p_messages (order_id, sender, body, upload_id, created_ms) values ($1, $2, $3, $4, $5)
       returning id::text`,
      [input.id, userId, input.text ?? '', uploadId, now],
    );
    const message: P2pMessage = {
      id: Number(rows[0]?.id),
      order_id: input.id,
      from: userId,
      text: input.text ?? '',
      image: uploadId === null ? null : p2pImageAddress(uploadId),
      created_time: now,
    };
    // The row is committed: both parties are told.
    const status = statusOf(row);
    for (const party of [row.buyer_id, row.seller_id])
      this.deps.realtime.toUser(party, 'p2p_order', {
        type: 'p2p_order',
        order_id: input.id,
        status,
        end: row.order_end,
        change: 'message',
        time: now,
      });
    return message;
  }

  /** An image for an order's chat or appeal: stored privately, re-encoded like the identity photos. */
  async upload(userId: number, data: Buffer): Promise<string> {
    const upload = await saveUpload(this.db, this.deps.dataDir, userId, data);
    return p2pImageAddress(upload.id);
  }

  /**
   * An image the user may see: its own upload, or one in the chat or appeal of an order the user is a party
   * to, or the payment QR code of a method shown on such an order. Anything else is answered like a missing
   * image.
   */
  async image(userId: number | null, address: string): Promise<{ upload: StoredUpload; data: Buffer }> {
    const id = uploadIdFrom(address);
    const upload = id === null ? null : await findUpload(this.db, id);
    if (upload === null) throw new AppError('upload.not_found');
    if (userId !== null && upload.user_id !== userId) {
      const { rows } = await this.db.query<{ ok: number }>(
        `select 1 as ok from p2p_orders o
          where (o.buyer_id = $1 or o.seller_id = $1)
            and (o.buyer_id = $3 or o.seller_id = $3)
            and (exists (select 1 from p2p_messages m where m.order_id = o.order_id and m.upload_id = $2)
                 or exists (select 1 from p2p_appeals a where a.order_id = o.order_id and $2 = any(a.evidence))
                 or exists (select 1 from p2p_payment_methods p where p.qr_upload_id = $2 and p.user_id = $3
                             and (p.id = o.method_id or p.id in (select unnest(v.method_ids::int[]) from p2p_ad_versions v
                                                                  where v.ad_id = o.ad_id))))
          limit 1`,
        [userId, upload.id, upload.user_id],
      );
      if (rows.length === 0) throw new AppError('upload.not_found');
    }
    return { upload, data: await readUploadFile(this.deps.dataDir, upload) };
  }
}
