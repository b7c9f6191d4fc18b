import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Form, Input, Modal, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { useState } from 'react';
import { useAdminT } from '../i18n.ts';
import { adminApi } from '../../data/admin-api.ts';
import { PageHeader, Time, useAdminMutation } from '../components/common.tsx';
import { useAdminSession } from '../session.ts';
import type { AdminLine, AdminsReply } from '@fairex/shared/api/backoffice.ts';

/** The people who run the exchange: their roles, their authenticators, and who may still sign in. */
export default function AdminsPage() {
  const t = useAdminT();
  const me = useAdminSession((state) => state.admin);
  const [creating, setCreating] = useState(false);
  const list = useQuery({
    queryKey: ['admin', 'admins'],
    queryFn: () => adminApi.get<AdminsReply>('/backoffice/admins'),
  });
  const invalidate = [['admins']];
  const disable = useAdminMutation(
    ({ id, disabled }: { id: number; disabled: boolean }) =>
      adminApi.post<string>('/backoffice/admins/disable', { id, disabled }),
    { invalidate },
  );
  const reset = useAdminMutation(
    (id: number) => adminApi.post<string>('/backoffice/admins/reset_second_factor', { id }),
    { invalidate },
  );
  const columns: ColumnsType<AdminLine> = [
    { title: 'ID', dataIndex: 'id', width: 60 },
    {
      title: t('admins.username'),
      dataIndex: 'username',
      render: (name: string) => <span className="fx-admin-strong">{name}</span>,
    },
    {
      title: t('admins.role'),
      dataIndex: 'role',
      render: (role: 'admin' | 'reviewer') => (
        <Tag color={role === 'admin' ? 'purple' : 'cyan'}>{t(`roles.${role}`)}</Tag>
      ),
    },
    {
      title: t('users.secondFactor'),
      dataIndex: 'second_factor',
      render: (on: boolean) =>
        on ? <Tag color="blue">{t('common.on')}</Tag> : <Tag color="gold">{t('admins.enrolNext')}</Tag>,
    },
    {
      title: t('common.status'),
      dataIndex: 'disabled',
      render: (off: boolean) =>
        off ? <Tag color="red">{t('admins.disabled')}</Tag> : <Tag color="green">{t('users.active')}</Tag>,
    },
    {
      title: t('admins.lastSession'),
      dataIndex: 'last_session_at',
      render: (value: string | null) => <Time value={value} />,
    },
    {
      title: t('users.registered'),
      dataIndex: 'created_at',
      render: (value: string) => <Time value={value} />,
    },
    {
      key: 'actions',
      align: 'right',
      render: (_: unknown, row) =>
        row.id === me?.id ? (
          <Typography.Text type="secondary">{t('admins.you')}</Typography.Text>
        ) : (
          <Space size={0}>
            {row.second_factor && (
              <Popconfirm title={t('admins.resetConfirm')} onConfirm={() => reset.mutate(row.id)}>
                <Button type="link">{t('users.resetSecondFactor')}</Button>
              </Popconfirm>
            )}
            <Popconfirm
              title={row.disabled ? t('admins.enableConfirm') : t('admins.disableConfirm')}
              onConfirm={() => disable.mutate({ id: row.id, disabled: !row.disabled })}
            >
              <Button type="link" danger={!row.disabled}>
                {row.disabled ? t('admins.enable') : t('admins.disable')}
              </Button>
            </Popconfirm>
          </Space>
        ),
    },
  ];
  return (
    <div>
      <PageHeader
        title={t('admins.title')}
        description={t('admins.description')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            {t('admins.add')}
          </Button>
        }
      />
      <Card>
        <Table<AdminLine>
          rowKey="id"
          columns={columns}
          dataSource={list.data?.list}
          loading={list.isPending}
          pagination={false}
        />
      </Card>
      {creating && <CreateAdmin onClose={() => setCreating(false)} />}
    </div>
  );
}

function CreateAdmin({ onClose }: { onClose: () => void }) {
  const t = useAdminT();
  const [form] = Form.useForm<{ username: string; password: string; role: 'admin' | 'reviewer' }>();
  const create = useAdminMutation(
    (values: { username: string; password: string; role: string }) =>
      adminApi.post('/backoffice/admins/create', values),
    { invalidate: [['admins']], onSuccess: onClose },
  );
  return (
    <Modal
      open
      title={t('admins.add')}
      okText={t('common.create')}
      onCancel={onClose}
      onOk={() => void form.validateFields().then((values) => create.mutate(values))}
      confirmLoading={create.isPending}
    >
      <Typography.Paragraph type="secondary">{t('admins.addHelp')}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ role: 'reviewer' }}>
        <Form.Item
          name="username"
          label={t('admins.username')}
          rules={[{ required: true, pattern: /^[a-z0-9_.-]{3,32}$/, message: t('admins.usernameRule') }]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('login.password')}
          rules={[{ required: true, min: 12, message: t('admins.passwordRule') }]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="role" label={t('admins.role')}>
          <Select
            options={[
              { value: 'reviewer', label: t('roles.reviewer') },
              { value: 'admin', label: t('roles.admin') },
            ]}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
