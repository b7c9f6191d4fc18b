import { Button, Form, Input, Modal, Select } from 'antd';
import { adminApi } from '../../data/admin-api.ts';
import { useAdminT, type AdminKey } from '../i18n.ts';
import { useAdminMutation } from './common.tsx';

// Moving the operator's money into a house account (the leverage insurance fund, the seconds-contract
// reserve): a currency of the account, an amount and a note, sent only after a dialog that repeats amount
// and currency; the server's answer is shown as it came and the account's figures are read again.

export type HouseFundValues = {
  currency_id: number;
  amount: string;
  note?: string;
};

/**
 * The console's texts of a house account: `<section>.amount`, `.noteField`, `.fund`, `.confirmTitle` and
 * `.confirm` (with `{amount}` and `{code}`).
 */
export type HouseFundSection = 'lever.insurance' | 'micro.reserve';

export function HouseFundForm({
  currencies,
  url,
  invalidate,
  section,
  currencyLabel,
  testId,
}: {
  /** The account's currencies; the first is chosen. */
  currencies: readonly { id: number; code: string }[];
  /** The back-office call that funds the account. */
  url: string;
  /** The admin lists the funding changes. */
  invalidate: string[][];
  section: HouseFundSection;
  /** The label of the currency field. */
  currencyLabel: AdminKey;
  /** Prefix of the test ids: `<testId>-fund-amount`, `<testId>-fund`, `<testId>-fund-confirm`. */
  testId: string;
}) {
  const t = useAdminT();
  const [form] = Form.useForm<HouseFundValues>();
  const fund = useAdminMutation((values: HouseFundValues) => adminApi.post(url, values), {
    invalidate,
    onSuccess: () => form.resetFields(['amount', 'note']),
  });
  const confirm = (values: HouseFundValues) =>
    Modal.confirm({
      title: t(`${section}.confirmTitle`),
      content: t(`${section}.confirm`, {
        amount: values.amount,
        code: currencies.find((currency) => currency.id === values.currency_id)?.code ?? '',
      }),
      okText: t(`${section}.fund`),
      okButtonProps: { 'data-testid': `${testId}-fund-confirm` } as Record<string, string>,
      // The mutation shows the server's refusal itself; the dialog just closes.
      onOk: () => fund.mutateAsync(values).catch(() => undefined),
    });
  return (
    <Form
      // Mounted again once the currencies are read, so that the first one is chosen.
      key={currencies[0]?.id ?? 'none'}
      form={form}
      layout="inline"
      className="fx-admin-full"
      style={{ marginTop: 12 }}
      initialValues={{ currency_id: currencies[0]?.id }}
      onFinish={confirm}
    >
      <Form.Item name="currency_id" label={t(currencyLabel)} rules={[{ required: true }]}>
        <Select
          style={{ minWidth: 100 }}
          options={currencies.map((currency) => ({ value: currency.id, label: currency.code }))}
        />
      </Form.Item>
      <Form.Item name="amount" label={t(`${section}.amount`)} rules={[{ required: true }]}>
        <Input inputMode="decimal" data-testid={`${testId}-fund-amount`} />
      </Form.Item>
      <Form.Item name="note" label={t(`${section}.noteField`)}>
        <Input maxLength={200} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={fund.isPending} data-testid={`${testId}-fund`}>
        {t(`${section}.fund`)}
      </Button>
    </Form>
  );
}
