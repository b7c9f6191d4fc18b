import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spin } from 'antd';
import { CameraOutlined } from '@ant-design/icons';
import { fetchImageUrl, uploadImage } from '../../data/account.ts';
import { useMessage } from '../../app/message.tsx';

/** Spec 02 section 9: ID images are JPG or PNG of at most 4 MB (the server checks the content again). */
export const MAX_PHOTO_BYTES = 4 * 1024 * 1024;
const ACCEPTED = ['image/jpeg', 'image/png'];

interface PhotoUploadProps {
  label: string;
  /** The upload's address once uploaded. */
  value?: string;
  onChange?: (address: string) => void;
  testId: string;
}

/** One photo box: pick a file, it uploads at once (spec 01 section 5: "each uploaded first"), then shows. */
export function PhotoUpload({ label, value, onChange, testId }: PhotoUploadProps) {
  const { t } = useTranslation();
  const message = useMessage();
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);

  useEffect(() => {
    if (!value) return;
    let active = true;
    let url: string | null = null;
    fetchImageUrl(value).then(
      (objectUrl) => {
        url = objectUrl;
        if (active) setPreview(objectUrl);
        else URL.revokeObjectURL(objectUrl);
      },
      () => undefined,
    );
    return () => {
      active = false;
      if (url !== null) URL.revokeObjectURL(url);
    };
  }, [value]);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    if (!ACCEPTED.includes(file.type)) {
      void message.error(t('account.photoType'));
      return;
    }
    if (file.size > MAX_PHOTO_BYTES) {
      void message.error(t('account.photoSize'));
      return;
    }
    setUploading(true);
    try {
      onChange?.(await uploadImage(file));
    } catch (error) {
      void message.error((error as Error).message);
    } finally {
      setUploading(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <div className="fx-photo">
      <button
        type="button"
        className={preview ? 'fx-photo-box has-image' : 'fx-photo-box'}
        onClick={() => input.current?.click()}
        disabled={uploading}
        data-testid={`${testId}-box`}
        data-uploaded={value ? 'true' : 'false'}
      >
        {uploading ? (
          <Spin />
        ) : preview ? (
          <img src={preview} alt={label} />
        ) : (
          <span className="fx-photo-empty">
            <CameraOutlined />
            <span>{t('account.upload')}</span>
          </span>
        )}
      </button>
      <input
        ref={input}
        type="file"
        accept="image/jpeg,image/png"
        className="fx-photo-input"
        onChange={(event) => void onFile(event.target.files?.[0])}
        data-testid={`${testId}-input`}
      />
      <div className="fx-photo-label">{label}</div>
    </div>
  );
}
