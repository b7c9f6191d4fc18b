import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useAdminT, type AdminKey } from '../i18n.ts';
import { AdminApiError } from '../../data/admin-api.ts';
import { useMessage } from '../../app/message.tsx';

/** A page's title row: the title, a line saying what the page is for, and its actions. */
export function PageHeader({
  title,
  description,
  extra,
}: {
  title: string;
  description?: string;
  extra?: ReactNode;
}) {
  return (
    <div className="fx-admin-page-header">
      <div>
        <Typography.Title level={3} className="fx-admin-page-title">
          {title}
        </Typography.Title>
        {description !== undefined && <Typography.Text type="secondary">{description}</Typography.Text>}
      </div>
      {extra !== undefined && <div className="fx-admin-page-extra">{extra}</div>}
    </div>
  );
}

/** A decimal amount exactly as the server sent it (text, never a JavaScript number), aligned by its digits. */
export function Amount({
  value,
  code,
  strong,
}: {
  value: string | null | undefined;
  code?: string;
  strong?: boolean;
}) {
  if (value === null || value === undefined || value === '') return <span className="fx-admin-muted">—</span>;
  const negative = value.startsWith('-');
  const zero = /^-?0(\.0+)?$/.test(value);
  // Zero is written as 0 so that wide tables of balances stay readable; every other amount keeps its digits.
  return (
    <span
      className={`fx-admin-amount${negative && !zero ? ' is-negative' : ''}${zero ? ' is-zero' : ''}${strong ? ' is-strong' : ''}`}
    >
      {zero && !strong ? '0' : value}
      {code !== undefined && <span className="fx-admin-code"> {code}</span>}
    </span>
  );
}

/** A time in the operator's zone, with the exact UTC instant on hover. */
export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="fx-admin-muted">—</span>;
  return (
    <Tooltip title={value}>
      <span className="fx-admin-time">{dayjs(value).format('YYYY-MM-DD HH:mm:ss')}</span>
    </Tooltip>
  );
}

const STATUS_COLOURS: Record<string, string> = {
  pending: 'gold',
  requested: 'gold',
  approved: 'blue',
  completed: 'green',
  credited: 'green',
  rejected: 'red',
  failed: 'red',
  resting: 'blue',
  filled: 'green',
  cancelled: 'default',
  accepted: 'blue',
  outbox: 'purple',
  sent: 'green',
  refused: 'red',
  duplicate: 'default',
  noted: 'default',
  withdrawal_completed: 'green',
  withdrawal_failed: 'red',
};

/** A status word of the server, translated, coloured by what it means. */
export function StatusTag({ status }: { status: string }) {
  const t = useAdminT();
  const label = t(`status.${status}` as AdminKey, { defaultValue: status });
  return <Tag color={STATUS_COLOURS[status] ?? 'default'}>{label}</Tag>;
}

export function errorText(error: unknown): string {
  if (error instanceof AdminApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * A change sent to the server: the server's own confirmation (or refusal) is shown as it came, translated,
 * and the lists named in `invalidate` are read again.
 */
export function useAdminMutation<I>(
  action: (input: I) => Promise<unknown>,
  options: { invalidate?: string[][]; onSuccess?: (result: unknown) => void } = {},
) {
  const message = useMessage();
  const t = useAdminT();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: action,
    onSuccess: async (result) => {
      // Close dialogs first, so that re-reading the lists does not also re-read a record nobody shows any more.
      options.onSuccess?.(result);
      const text =
        typeof result === 'string'
          ? result
          : typeof (result as { message?: unknown } | null)?.message === 'string'
            ? (result as { message: string }).message
            : t('common.saved');
      void message.success(text);
      for (const key of options.invalidate ?? [])
        await queryClient.invalidateQueries({ queryKey: ['admin', ...key] });
    },
    onError: (error) => {
      void message.error(errorText(error));
    },
  });
}
