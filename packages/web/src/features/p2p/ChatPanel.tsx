import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Input, Spin } from 'antd';
import { PaperClipOutlined, SendOutlined } from '@ant-design/icons';
import type { P2pMessage } from '../../data/p2p.ts';
import { clockOf } from '../../components/trading/display.ts';

// The order's chat: the two parties' messages, the system's status lines and an arbiter's notes, newest at
// the bottom; text and image attachments (stored privately, read with the token). The panel takes its data
// and actions as props; the order room wires them to the server.

/** JPG or PNG of at most 4 MB, as for the real-name photos (the server checks the content again). */
export const MAX_CHAT_IMAGE_BYTES = 4 * 1024 * 1024;
const ACCEPTED = ['image/jpeg', 'image/png'];

export type ImageLoader = (image: string) => Promise<string>;

/** A private image: fetched with the token and shown through an object URL, released on unmount. */
export function PrivateImage({ image, load, alt }: { image: string; load: ImageLoader; alt: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let active = true;
    let made: string | null = null;
    load(image).then(
      (objectUrl) => {
        made = objectUrl;
        if (active) setUrl(objectUrl);
        else URL.revokeObjectURL(objectUrl);
      },
      () => active && setFailed(true),
    );
    return () => {
      active = false;
      if (made !== null) URL.revokeObjectURL(made);
    };
  }, [image, load]);
  if (failed) return <span className="fx-p2p-image-missing">{alt}</span>;
  if (url === null) return <Spin size="small" />;
  return (
    <a href={url} target="_blank" rel="noreferrer">
      <img className="fx-p2p-chat-image" src={url} alt={alt} />
    </a>
  );
}

export interface ChatPanelProps {
  messages: P2pMessage[];
  /** The viewer's user id: their messages sit on the right. */
  myId: number;
  /** Names of the two parties by user id. */
  names: Record<number, string>;
  /** Closed orders keep their chat readable but take no new messages. */
  closed: boolean;
  loadImage: ImageLoader;
  onSend: (message: { text?: string; image?: string }) => Promise<void>;
  onUpload: (file: File) => Promise<string>;
  onError: (text: string) => void;
}

export function ChatPanel({
  messages,
  myId,
  names,
  closed,
  loadImage,
  onSend,
  onUpload,
  onError,
}: ChatPanelProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const file = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = list.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [messages.length]);

  const send = async (message: { text?: string; image?: string }) => {
    setBusy(true);
    try {
      await onSend(message);
      if (message.text !== undefined) setText('');
    } catch (error) {
      onError((error as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const attach = async (picked: File | undefined) => {
    if (!picked) return;
    if (!ACCEPTED.includes(picked.type)) return onError(t('p2p.chat.imageType'));
    if (picked.size > MAX_CHAT_IMAGE_BYTES) return onError(t('p2p.chat.imageSize'));
    setBusy(true);
    try {
      const image = await onUpload(picked);
      await onSend({ image });
    } catch (error) {
      onError((error as Error).message);
    } finally {
      setBusy(false);
      if (file.current) file.current.value = '';
    }
  };

  const who = (from: number) =>
    from === 0 ? t('p2p.chat.system') : from === -1 ? t('p2p.chat.arbiter') : (names[from] ?? String(from));

  return (
    <section className="fx-p2p-chat" aria-label={t('p2p.chat.title')} data-testid="p2p-chat">
      <header className="fx-p2p-chat-head">{t('p2p.chat.title')}</header>
      <div className="fx-p2p-chat-list" ref={list} data-testid="p2p-chat-list">
        {messages.length === 0 && <div className="fx-p2p-chat-empty">{t('p2p.chat.empty')}</div>}
        {messages.map((message) => {
          const kind = message.from === myId ? 'mine' : message.from <= 0 ? 'system' : 'theirs';
          return (
            <div
              key={message.id}
              className={`fx-p2p-chat-row is-${kind}`}
              data-testid={`p2p-chat-${message.id}`}
            >
              {kind !== 'mine' && <div className="fx-p2p-chat-who">{who(message.from)}</div>}
              <div className="fx-p2p-chat-bubble">
                {message.text !== '' && <div className="fx-p2p-chat-text">{message.text}</div>}
                {message.image !== null && (
                  <PrivateImage image={message.image} load={loadImage} alt={t('p2p.chat.image')} />
                )}
              </div>
              <div className="fx-p2p-chat-time">{clockOf(message.created_time)}</div>
            </div>
          );
        })}
      </div>
      {closed ? (
        <div className="fx-p2p-chat-closed">{t('p2p.chat.closed')}</div>
      ) : (
        <form
          className="fx-p2p-chat-form"
          onSubmit={(event) => {
            event.preventDefault();
            const trimmed = text.trim();
            if (trimmed !== '') void send({ text: trimmed });
          }}
        >
          <input
            ref={file}
            type="file"
            accept="image/png,image/jpeg"
            hidden
            onChange={(event) => void attach(event.target.files?.[0])}
            data-testid="p2p-chat-file"
          />
          <Button
            icon={<PaperClipOutlined />}
            aria-label={t('p2p.chat.attach')}
            onClick={() => file.current?.click()}
            disabled={busy}
          />
          <Input
            value={text}
            maxLength={1000}
            onChange={(event) => setText(event.target.value)}
            placeholder={t('p2p.chat.placeholder')}
            data-testid="p2p-chat-input"
          />
          <Button
            type="primary"
            htmlType="submit"
            icon={<SendOutlined />}
            loading={busy}
            aria-label={t('p2p.chat.send')}
            data-testid="p2p-chat-send"
          />
        </form>
      )}
    </section>
  );
}
