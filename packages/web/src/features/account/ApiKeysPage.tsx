import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Empty, Input, Modal, Popconfirm, Table, Tag } from 'antd';
import type { ButtonProps } from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { KeyOutlined, PlusOutlined } from '@ant-design/icons';
import {
  API_KEYS_KEY,
  createApiKey,
  parseAllowlist,
  revokeApiKey,
  useApiKeys,
  type ApiKeyScope,
  type ApiKeyView,
  type CreatedApiKey,
} from '../../data/api-keys.ts';
import { useWalletProtection } from '../../data/wallet.ts';
import { useMessage } from '../../app/message.tsx';
import { timeText } from '../assets/wallet-format.ts';
import { SecondFactorField, secondFactorCodes } from '../withdrawal/SecondFactorField.tsx';
import { AccountLayout } from './AccountLayout.tsx';
import { CopyButton } from './CopyButton.tsx';

const SCOPES: readonly ApiKeyScope[] = ['read', 'trade', 'withdraw'];

/** Issue 21: the user's API keys for bots (docs/api-keys.md): list, create, revoke. */
export default function ApiKeysPage() {
  const { t } = useTranslation();
  const message = useMessage();
  const client = useQueryClient();
  const keys = useApiKeys();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: API_KEYS_KEY });

  const revoke = async (key: ApiKeyView) => {
    try {
      void message.success(await revokeApiKey(key.id));
    } catch (error) {
      void message.error((error as Error).message);
    }
    await refresh();
  };

  const columns: ColumnsType<ApiKeyView> = [
    { title: t('apiKeys.label'), dataIndex: 'label', key: 'label' },
    {
      title: t('apiKeys.key'),
      dataIndex: 'key',
      key: 'key',
      render: (value: string) => <code className="fx-api-key-id">{value}</code>,
    },
    {
      title: t('apiKeys.scopes'),
      key: 'scopes',
      render: (_, key) =>
        key.scopes.map((scope) => (
          <Tag key={scope} color={scope === 'withdraw' ? 'red' : undefined}>
            {t(`apiKeys.scope_${scope}`)}
          </Tag>
        )),
    },
    {
      title: t('apiKeys.ips'),
      key: 'ips',
      render: (_, key) => (key.ip_allowlist.length === 0 ? t('apiKeys.anyIp') : key.ip_allowlist.join(', ')),
    },
    { title: t('apiKeys.created'), key: 'created', render: (_, key) => timeText(key.created_at) },
    {
      title: t('apiKeys.lastUsed'),
      key: 'lastUsed',
      render: (_, key) => (key.last_used_at === null ? t('apiKeys.neverUsed') : timeText(key.last_used_at)),
    },
    {
      title: t('apiKeys.status'),
      key: 'actions',
      render: (_, key) =>
        key.revoked ? (
          <Tag data-testid={`api-key-revoked-${key.id}`}>{t('apiKeys.revoked')}</Tag>
        ) : (
          <Popconfirm
            title={t('apiKeys.revokeConfirm', { label: key.label })}
            okText={t('apiKeys.revoke')}
            okButtonProps={{ danger: true, 'data-testid': 'api-key-revoke-ok' } as ButtonProps}
            cancelText={t('apiKeys.cancel')}
            onConfirm={() => revoke(key)}
          >
            <Button size="small" danger data-testid={`api-key-revoke-${key.id}`}>
              {t('apiKeys.revoke')}
            </Button>
          </Popconfirm>
        ),
    },
  ];

  return (
    <AccountLayout title={t('apiKeys.title')} testId="api-keys">
      <p className="fx-api-keys-intro">{t('apiKeys.intro')}</p>
      <section className="fx-api-keys-signing" data-testid="api-keys-docs">
        <h3>{t('apiKeys.signTitle')}</h3>
        <p>{t('apiKeys.signIntro')}</p>
        <dl>
          <dt>
            <code>X-FX-KEY</code>
          </dt>
          <dd>{t('apiKeys.signKey')}</dd>
          <dt>
            <code>X-FX-TIMESTAMP</code>
          </dt>
          <dd>{t('apiKeys.signTime')}</dd>
          <dt>
            <code>X-FX-SIGNATURE</code>
          </dt>
          <dd>{t('apiKeys.signSignature')}</dd>
        </dl>
        <pre className="fx-api-keys-example">{'HMAC-SHA256(secret, timestamp + METHOD + path + body)'}</pre>
        <p>{t('apiKeys.signNotes')}</p>
      </section>
      <div className="fx-api-keys-actions">
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setCreating(true)}
          data-testid="api-key-create"
        >
          {t('apiKeys.create')}
        </Button>
      </div>
      <Table<ApiKeyView>
        rowKey="id"
        size="small"
        loading={keys.isLoading}
        columns={columns}
        dataSource={keys.data ?? []}
        pagination={false}
        scroll={{ x: true }}
        locale={{ emptyText: <Empty description={t('apiKeys.empty')} /> }}
        data-testid="api-keys-table"
      />
      {creating ? (
        <CreateKeyDialog
          onClose={() => setCreating(false)}
          onCreated={(key) => {
            setCreating(false);
            setCreated(key);
            void refresh();
          }}
        />
      ) : null}
      {created === null ? null : <SecretDialog created={created} onClose={() => setCreated(null)} />}
    </AccountLayout>
  );
}

function CreateKeyDialog({ onClose, onCreated }: { onClose(): void; onCreated(key: CreatedApiKey): void }) {
  const { t } = useTranslation();
  const message = useMessage();
  const protection = useWalletProtection();
  const [label, setLabel] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['read']);
  const [ips, setIps] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const withdraw = scopes.includes('withdraw');
  const allowlist = parseAllowlist(ips);
  const problem =
    label.trim() === ''
      ? t('apiKeys.labelRequired')
      : scopes.length === 0
        ? t('apiKeys.scopeRequired')
        : withdraw && allowlist.length === 0
          ? t('apiKeys.withdrawNeedsIps')
          : withdraw && code.trim() === ''
            ? t('apiKeys.codeRequired')
            : null;

  const submit = async () => {
    if (problem !== null) {
      void message.error(problem);
      return;
    }
    setBusy(true);
    try {
      const key = await createApiKey({
        label,
        scopes,
        ips: allowlist,
        ...(withdraw ? secondFactorCodes(protection.data?.method, code) : {}),
      });
      onCreated(key);
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={t('apiKeys.createTitle')}
      okText={t('apiKeys.createOk')}
      cancelText={t('apiKeys.cancel')}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'api-key-create-ok' } as ButtonProps}
      destroyOnHidden
    >
      <div className="fx-wallet-field">
        <label className="fx-wallet-field-label" htmlFor="api-key-label">
          {t('apiKeys.label')}
        </label>
        <Input
          id="api-key-label"
          value={label}
          maxLength={64}
          onChange={(event) => setLabel(event.target.value)}
          data-testid="api-key-label"
        />
      </div>
      <div className="fx-wallet-field">
        <div className="fx-wallet-field-label">{t('apiKeys.scopes')}</div>
        <Checkbox.Group
          value={scopes}
          onChange={(value) => setScopes(SCOPES.filter((scope) => value.includes(scope)))}
          options={SCOPES.map((scope) => ({
            value: scope,
            label: <span data-testid={`api-key-scope-${scope}`}>{t(`apiKeys.scope_${scope}`)}</span>,
          }))}
        />
        <div className="fx-wallet-note">{t('apiKeys.scopesHint')}</div>
      </div>
      <div className="fx-wallet-field">
        <label className="fx-wallet-field-label" htmlFor="api-key-ips">
          {t('apiKeys.ips')}
        </label>
        <Input.TextArea
          id="api-key-ips"
          value={ips}
          rows={2}
          placeholder="203.0.113.7, 198.51.100.0"
          onChange={(event) => setIps(event.target.value)}
          data-testid="api-key-ips"
        />
        <div className="fx-wallet-note">
          {withdraw ? t('apiKeys.withdrawNeedsIps') : t('apiKeys.ipsHint')}
        </div>
      </div>
      {withdraw ? (
        <>
          <Alert type="warning" showIcon message={t('apiKeys.withdrawWarning')} />
          <SecondFactorField value={code} onChange={setCode} testIdPrefix="api-key" />
        </>
      ) : null}
    </Modal>
  );
}

function SecretDialog({ created, onClose }: { created: CreatedApiKey; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={
        <span>
          <KeyOutlined /> {t('apiKeys.secretTitle')}
        </span>
      }
      onCancel={onClose}
      maskClosable={false}
      footer={
        <Button type="primary" onClick={onClose} data-testid="api-key-secret-done">
          {t('apiKeys.secretDone')}
        </Button>
      }
    >
      <Alert
        type="error"
        showIcon
        message={t('apiKeys.secretWarning')}
        data-testid="api-key-secret-warning"
      />
      <div className="fx-wallet-field">
        <div className="fx-wallet-field-label">{t('apiKeys.key')}</div>
        <div className="fx-api-key-secret">
          <code data-testid="api-key-new-key">{created.key}</code>
          <CopyButton text={created.key} testId="api-key-copy-key" />
        </div>
      </div>
      <div className="fx-wallet-field">
        <div className="fx-wallet-field-label">{t('apiKeys.secret')}</div>
        <div className="fx-api-key-secret">
          <code data-testid="api-key-new-secret">{created.secret}</code>
          <CopyButton text={created.secret} testId="api-key-copy-secret" />
        </div>
      </div>
    </Modal>
  );
}
