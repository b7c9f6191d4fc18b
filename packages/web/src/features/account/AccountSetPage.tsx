import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Progress, Skeleton, Tag } from 'antd';
import {
  GiftOutlined,
  GoogleOutlined,
  IdcardOutlined,
  LinkOutlined,
  LockOutlined,
  MailOutlined,
  MobileOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { useUserInfo, type UserInfo } from '../../data/auth.ts';
import { securityLevel } from '../auth/validation.ts';
import { AccountLayout } from './AccountLayout.tsx';
import { BindMobileDialog } from './BindMobileDialog.tsx';
import { ChangePasswordDialog } from './ChangePasswordDialog.tsx';
import { CopyButton } from './CopyButton.tsx';
import { maskEmail, maskPhone } from './masks.ts';
import { TwoFactorDialog } from './TwoFactorDialog.tsx';
import { useMessage } from '../../app/message.tsx';

/** Spec 01 sections 2 and 4: the security page of the account centre. */
export default function AccountSetPage() {
  const { t } = useTranslation();
  const { data: info, error } = useUserInfo();
  return (
    <AccountLayout title={t('account.securityTitle')} testId="account-set">
      {info ? (
        <SecurityItems info={info} />
      ) : error ? (
        <p className="fx-account-error">{error.message}</p>
      ) : (
        <Skeleton active />
      )}
    </AccountLayout>
  );
}

type Dialog = 'password' | 'mobile' | 'totp' | null;

function SecurityItems({ info }: { info: UserInfo }) {
  const { t } = useTranslation();
  const message = useMessage();
  const [dialog, setDialog] = useState<Dialog>(null);
  const registrationLink = `${window.location.origin}/#/components/register?extension_code=${encodeURIComponent(info.extension_code)}`;
  const reviewKey = (['realName0', 'realName1', 'realName2'] as const)[info.review_status] ?? 'realName0';
  return (
    <>
      <SecurityLevel info={info} />
      <div className="fx-security-list">
        <SecurityItem
          icon={<GiftOutlined />}
          title={t('account.inviteCode')}
          value={
            <span className="fx-mono" data-testid="invite-code-value">
              {info.extension_code}
            </span>
          }
          action={<CopyButton text={info.extension_code} testId="copy-invite-code" />}
        />
        <SecurityItem
          icon={<LinkOutlined />}
          title={t('account.inviteLink')}
          value={
            <span className="fx-mono fx-break" data-testid="invite-link-value">
              {registrationLink}
            </span>
          }
          action={<CopyButton text={registrationLink} testId="copy-invite-link" />}
        />
        <SecurityItem
          icon={<MobileOutlined />}
          title={t('account.phone')}
          value={info.phone ? `+${info.area_code ?? ''} ${maskPhone(info.phone)}` : <NotBound />}
          testId="item-phone"
          action={
            <Button size="small" onClick={() => setDialog('mobile')} data-testid="bind-mobile">
              {info.phone ? t('account.change') : t('account.bind')}
            </Button>
          }
        />
        <SecurityItem
          icon={<MailOutlined />}
          title={t('account.email')}
          value={info.email ? maskEmail(info.email) : <NotBound />}
          testId="item-email"
          action={
            <Link to="/bindEmail" data-testid="bind-email-link">
              <Button size="small">{info.email ? t('account.change') : t('account.bind')}</Button>
            </Link>
          }
        />
        <SecurityItem
          icon={<LockOutlined />}
          title={t('account.loginPassword')}
          value={t('account.loginPasswordHint')}
          action={
            <Button size="small" onClick={() => setDialog('password')} data-testid="change-password">
              {t('account.change')}
            </Button>
          }
        />
        <SecurityItem
          icon={<GoogleOutlined />}
          title={t('account.google')}
          value={
            <>
              <Tag color={info.google_bind ? 'success' : 'default'} data-testid="google-state">
                {info.google_bind ? t('account.googleOn') : t('account.googleOff')}
              </Tag>
              {t('account.googleHint')}
            </>
          }
          action={
            <Button size="small" onClick={() => setDialog('totp')} data-testid="google-toggle">
              {info.google_bind ? t('account.disable') : t('account.enable')}
            </Button>
          }
        />
        <SecurityItem
          icon={<IdcardOutlined />}
          title={t('account.realName')}
          value={<span data-testid="real-name-state">{t(`account.${reviewKey}`)}</span>}
          action={
            <Link to="/authentication">
              <Button size="small">
                {info.review_status === 2 ? t('account.view') : t('account.verify')}
              </Button>
            </Link>
          }
        />
        <SecurityItem
          icon={<WalletOutlined />}
          title={t('account.address')}
          value={t('account.addressHint')}
          action={
            <Button
              size="small"
              onClick={() => void message.info(t('account.notOpen'))}
              data-testid="address-item"
            >
              {t('account.manage')}
            </Button>
          }
        />
      </div>
      <ChangePasswordDialog open={dialog === 'password'} onClose={() => setDialog(null)} />
      <BindMobileDialog open={dialog === 'mobile'} onClose={() => setDialog(null)} />
      <TwoFactorDialog
        open={dialog === 'totp'}
        enabled={info.google_bind === 1}
        onClose={() => setDialog(null)}
      />
    </>
  );
}

function NotBound() {
  const { t } = useTranslation();
  return <span className="fx-muted">{t('account.notBound')}</span>;
}

function SecurityItem(props: {
  icon: ReactNode;
  title: string;
  value: ReactNode;
  action: ReactNode;
  testId?: string;
}) {
  return (
    <div className="fx-security-item" data-testid={props.testId}>
      <span className="fx-security-icon">{props.icon}</span>
      <div className="fx-security-text">
        <div className="fx-security-title">{props.title}</div>
        <div className="fx-security-value">{props.value}</div>
      </div>
      <div className="fx-security-action">{props.action}</div>
    </div>
  );
}

const LEVEL_KEYS = { 25: 'levelLow', 50: 'levelMedium', 75: 'levelHigh', 100: 'levelStrong' } as const;
const LEVEL_COLOURS = { 25: '#f6465d', 50: '#f0b90b', 75: '#2f6bff', 100: '#0ecb81' } as const;

/** Spec 01 section 4: 25 % plus 25 for a bound phone, a bound e-mail and an approved real-name. */
function SecurityLevel({ info }: { info: UserInfo }) {
  const { t } = useTranslation();
  const level = securityLevel(info) as 25 | 50 | 75 | 100;
  return (
    <div className="fx-security-level" data-testid="security-level" data-level={level}>
      <div className="fx-security-level-head">
        <span>{t('account.securityLevel')}</span>
        <strong style={{ color: LEVEL_COLOURS[level] }}>{t(`account.${LEVEL_KEYS[level]}`)}</strong>
      </div>
      <Progress
        percent={level}
        steps={4}
        size={[60, 8]}
        strokeColor={LEVEL_COLOURS[level]}
        showInfo={false}
      />
      {level < 100 && <p className="fx-muted fx-security-level-hint">{t('account.levelHint')}</p>}
    </div>
  );
}
