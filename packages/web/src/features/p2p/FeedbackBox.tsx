import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Input, Radio } from 'antd';
import { P2P_KEY, leaveFeedback, useOrderFeedback, type P2pOrder } from '../../data/p2p.ts';

// After a completed order, each party rates the other once (positive or negative, an optional comment); the
// box then shows both ratings. The server refuses a second rating or one on an order that did not complete.
export function FeedbackBox({ order, counterparty }: { order: P2pOrder; counterparty: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const feedback = useOrderFeedback(order.status === 'completed' ? order.id : null);
  const [rating, setRating] = useState<'positive' | 'negative' | null>(null);
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (order.status !== 'completed' || feedback.data === undefined) return null;
  const { mine, theirs } = feedback.data;
  const word = (value: 'positive' | 'negative') => t(`p2p.feedback.${value}`);

  const submit = async () => {
    if (rating === null) return;
    setBusy(true);
    setError(null);
    try {
      const trimmed = comment.trim();
      await leaveFeedback({ id: order.id, rating, ...(trimmed === '' ? {} : { comment: trimmed }) });
      await queryClient.invalidateQueries({ queryKey: [...P2P_KEY, 'feedback', order.id] });
      await queryClient.invalidateQueries({ queryKey: [...P2P_KEY, 'stats'] });
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="fx-p2p-feedback" data-testid="p2p-feedback">
      {mine === null ? (
        <>
          <h2 className="fx-p2p-feedback-title">{t('p2p.feedback.title', { name: counterparty })}</h2>
          <Radio.Group
            value={rating}
            onChange={(event) => setRating(event.target.value as 'positive' | 'negative')}
            optionType="button"
            options={[
              { value: 'positive', label: word('positive') },
              { value: 'negative', label: word('negative') },
            ]}
            data-testid="p2p-feedback-rating"
          />
          <Input.TextArea
            value={comment}
            maxLength={200}
            rows={2}
            placeholder={t('p2p.feedback.comment')}
            onChange={(event) => setComment(event.target.value)}
            data-testid="p2p-feedback-comment"
          />
          {error !== null && <Alert type="error" showIcon title={error} data-testid="p2p-feedback-error" />}
          <Button
            type="primary"
            disabled={rating === null}
            loading={busy}
            onClick={() => void submit()}
            data-testid="p2p-feedback-submit"
          >
            {t('p2p.feedback.submit')}
          </Button>
        </>
      ) : (
        <p data-testid="p2p-feedback-mine">
          {t('p2p.feedback.mine', { name: counterparty, rating: word(mine.rating) })}
          {mine.comment !== '' && <q className="fx-p2p-feedback-comment">{mine.comment}</q>}
        </p>
      )}
      <p data-testid="p2p-feedback-theirs">
        {theirs === null ? (
          t('p2p.feedback.waiting', { name: counterparty })
        ) : (
          <>
            {t('p2p.feedback.theirs', { name: counterparty, rating: word(theirs.rating) })}
            {theirs.comment !== '' && <q className="fx-p2p-feedback-comment">{theirs.comment}</q>}
          </>
        )}
      </p>
    </section>
  );
}
