import { Col, Form, Input } from 'antd';
import type { Rule } from 'antd/es/form/index.js';
import type { ReactNode } from 'react';
import { useAdminT } from '../i18n.ts';

// The console's amount and fee fields: decimal text checked for form only (the server parses it at the
// currency's or market's scale), never a JavaScript number.

/** A non-negative decimal as text: digits, and a fraction after a point. */
export const DECIMAL = /^\d+(\.\d+)?$/;

/** The rules of a required decimal field, with the console's message. */
export function useDecimalRules(): Rule[] {
  const t = useAdminT();
  return [{ required: true, pattern: DECIMAL, message: t('common.decimalFormat') }];
}

/** A required decimal text field in a column of a form's grid. */
export function DecimalField({
  name,
  label,
  span,
  suffix,
  testId,
}: {
  name: string;
  label: ReactNode;
  span: number;
  /** A unit after the value (`%`). */
  suffix?: string;
  testId?: string;
}) {
  const rules = useDecimalRules();
  return (
    <Col span={span}>
      <Form.Item name={name} label={label} rules={rules}>
        <Input suffix={suffix} inputMode="decimal" data-testid={testId} />
      </Form.Item>
    </Col>
  );
}
