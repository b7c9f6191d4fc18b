import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { ChangePasswordForm } from '../auth/ChangePasswordForm.tsx';

export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={440}
      title={t('auth.setPasswordTitle')}
      data-testid="change-password-dialog"
    >
      <ChangePasswordForm onDone={onClose} />
    </Modal>
  );
}
