import { useTranslation } from 'react-i18next';
import './mark-tag.css';

/**
 * The label of a mark price shown where a traded price would be (docs/market-data.md): "M" (translated),
 * with the translated tooltip "Mark price (no trades yet)" for pointer and screen reader alike. Every screen
 * that lets the mark stand in for a price puts this next to it.
 */
export function MarkTag() {
  const { t } = useTranslation();
  const note = t('spot.header.markInstead');
  return (
    <abbr className="fx-mark-tag" title={note} aria-label={note} data-testid="mark-tag">
      {t('spot.markets.markTag')}
    </abbr>
  );
}

/**
 * A pair's shown price, formatted, with the mark's label when the mark stands in for a trade; the element
 * around it carries `data-kind` ("trade" or "mark") for styles and tests.
 */
export function ShownPriceText({
  shown,
  format,
}: {
  shown: { price: string | undefined; kind: 'trade' | 'mark' };
  format: (price: string | undefined) => string;
}) {
  return (
    <>
      {format(shown.price)}
      {shown.kind === 'mark' && shown.price !== undefined && <MarkTag />}
    </>
  );
}
