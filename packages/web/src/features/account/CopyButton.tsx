import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useMessage } from '../../app/message.tsx';

/** Copies a text and says so; spec 01 section 8: "copy success" or "retry". */
export function useCopyText(): (text: string) => Promise<void> {
  const { t } = useTranslation();
  const message = useMessage();
  return async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      void message.success(t('account.copied'));
    } catch {
      void message.error(t('account.copyFailed'));
    }
  };
}

/** Copies a text; spec 01 section 8: "copy success" or "retry". */
export function CopyButton({ text, testId }: { text: string; testId: string }) {
  const { t } = useTranslation();
  const copyText = useCopyText();
  const copy = () => copyText(text);
  return (
    <Button size="small" icon={<CopyOutlined />} onClick={() => void copy()} data-testid={testId}>
      {t('account.copy')}
    </Button>
  );
}
