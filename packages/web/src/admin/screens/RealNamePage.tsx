import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  Descriptions,
  Drawer,
  Input,
  Modal,
  Popconfirm,
  Space,
  Table,
  Tabs,
  Typography,
  type ButtonProps,
} from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { useState } from 'react';
import { useAdminT } from '../i18n.ts';
import { adminApi, type Paged } from '../../data/admin-api.ts';
import { PageHeader, StatusTag, Time, useAdminMutation } from '../components/common.tsx';
import { PrivatePhoto } from '../components/PrivatePhoto.tsx';
import { accountColumn, statusColumn, timeColumn, useAdminPage } from '../components/table.tsx';
import type {
  RealNameStatus as Status,
  RealNameSubmission as Submission,
  RealNameSubmissionDetail as SubmissionDetail,
} from '@fairex/shared/api/backoffice.ts';

/** The real-name queue, oldest first, and each submission with its three photos. */
export default function RealNamePage() {
  const t = useAdminT();
  const [status, setStatus] = useState<Status>('pending');
  const [open, setOpen] = useState<number | null>(null);
  const { list, setPage, pagination } = useAdminPage<Paged<Submission>>(
    ['real-name', status],
    '/backoffice/real_name',
    { status },
    { showTotal: true },
  );
  const columns: ColumnsType<Submission> = [
    { title: 'ID', dataIndex: 'id', width: 80 },
    accountColumn(t('users.account')),
    { title: t('realName.name'), dataIndex: 'name' },
    timeColumn(t('realName.submitted'), 'created_at'),
    timeColumn(t('realName.reviewed'), 'reviewed_at'),
    statusColumn(t('common.status'), 'status'),
    {
      key: 'open',
      align: 'right',
      render: (_: unknown, row) => (
        <Button type="link" onClick={() => setOpen(row.id)} data-testid={`realname-open-${row.id}`}>
          {status === 'pending' ? t('realName.review') : t('common.view')}
        </Button>
      ),
    },
  ];
  return (
    <div>
      <PageHeader title={t('realName.title')} description={t('realName.description')} />
      <Card>
        <Tabs
          activeKey={status}
          onChange={(key) => {
            setStatus(key as Status);
            setPage(1);
          }}
          items={(['pending', 'approved', 'rejected'] as const).map((key) => ({
            key,
            label: t(`status.${key}`),
          }))}
        />
        <Table<Submission>
          rowKey="id"
          columns={columns}
          dataSource={list.data?.data}
          loading={list.isFetching}
          data-testid="realname-table"
          pagination={pagination}
          locale={{ emptyText: status === 'pending' ? t('realName.empty') : undefined }}
        />
      </Card>
      {open !== null && <ReviewDrawer id={open} onClose={() => setOpen(null)} />}
    </div>
  );
}

function ReviewDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const t = useAdminT();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const detail = useQuery({
    queryKey: ['admin', 'real-name-detail', id],
    queryFn: () => adminApi.get<SubmissionDetail>('/backoffice/real_name/detail', { id }),
  });
  const invalidate = [['real-name'], ['dashboard']];
  const approve = useAdminMutation(() => adminApi.post<string>('/backoffice/real_name/approve', { id }), {
    invalidate,
    onSuccess: onClose,
  });
  const reject = useAdminMutation(
    () => adminApi.post<string>('/backoffice/real_name/reject', { id, reason }),
    {
      invalidate,
      onSuccess: () => {
        setRejecting(false);
        onClose();
      },
    },
  );
  const submission = detail.data;
  return (
    <Drawer
      open
      width={720}
      onClose={onClose}
      title={t('realName.drawerTitle', { id })}
      data-testid="realname-drawer"
      extra={
        submission?.status === 'pending' && (
          <Space>
            <Button
              danger
              icon={<CloseOutlined />}
              onClick={() => setRejecting(true)}
              data-testid="realname-reject"
            >
              {t('common.reject')}
            </Button>
            {/* Approving marks the person verified for good: it is confirmed, naming who is approved. */}
            <Popconfirm
              title={t('realName.approveTitle')}
              description={t('realName.approveConfirm', {
                name: submission.name,
                account: submission.account,
              })}
              okText={t('common.approve')}
              okButtonProps={{ 'data-testid': 'realname-approve-confirm' } as ButtonProps}
              onConfirm={() => approve.mutate(undefined)}
            >
              <Button
                type="primary"
                icon={<CheckOutlined />}
                loading={approve.isPending}
                data-testid="realname-approve"
              >
                {t('common.approve')}
              </Button>
            </Popconfirm>
          </Space>
        )
      }
    >
      {submission && (
        <>
          <Descriptions column={2} size="small" bordered>
            <Descriptions.Item label={t('users.account')}>{submission.account}</Descriptions.Item>
            <Descriptions.Item label={t('common.status')}>
              <StatusTag status={submission.status} />
            </Descriptions.Item>
            <Descriptions.Item label={t('realName.name')}>{submission.name}</Descriptions.Item>
            <Descriptions.Item label={t('realName.cardId')}>
              <Typography.Text code>{submission.card_id}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('realName.submitted')}>
              <Time value={submission.created_at} />
            </Descriptions.Item>
            <Descriptions.Item label={t('realName.reviewer')}>
              {submission.reviewed_by ?? '—'}
            </Descriptions.Item>
            {submission.reject_reason !== null && (
              <Descriptions.Item label={t('common.reason')} span={2}>
                {submission.reject_reason}
              </Descriptions.Item>
            )}
          </Descriptions>
          <div className="fx-admin-photos">
            <PrivatePhoto
              path={submission.front_pic}
              label={t('realName.front')}
              testId="realname-photo-front"
            />
            <PrivatePhoto
              path={submission.reverse_pic}
              label={t('realName.back')}
              testId="realname-photo-back"
            />
            <PrivatePhoto
              path={submission.hand_pic}
              label={t('realName.hand')}
              testId="realname-photo-hand"
            />
          </div>
          <Typography.Paragraph type="secondary">{t('realName.privacy')}</Typography.Paragraph>
        </>
      )}
      <Modal
        open={rejecting}
        title={t('realName.rejectTitle')}
        okText={t('common.reject')}
        okButtonProps={
          {
            danger: true,
            disabled: reason.trim() === '',
            'data-testid': 'realname-reject-confirm',
          } as ButtonProps
        }
        onOk={() => reject.mutate(undefined)}
        confirmLoading={reject.isPending}
        onCancel={() => setRejecting(false)}
      >
        <Typography.Paragraph type="secondary">{t('realName.rejectHelp')}</Typography.Paragraph>
        <Input.TextArea
          rows={3}
          maxLength={500}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          data-testid="realname-reason"
        />
      </Modal>
    </Drawer>
  );
}
