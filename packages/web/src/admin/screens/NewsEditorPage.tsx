import { ArrowLeftOutlined, SaveOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Col,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Space,
  Spin,
  Switch,
  Tabs,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useAdminT } from '../i18n.ts';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { LANGUAGE_INFO, LANGUAGES, type Language } from '../../i18n/languages.ts';
import { adminApi } from '../../data/admin-api.ts';
import { PageHeader, useAdminMutation } from '../components/common.tsx';
import { RichTextEditor } from '../components/RichTextEditor.tsx';
import { categoryName } from './ContentPage.tsx';
import type {
  NewsCategoriesReply,
  NewsItemCreatedReply,
  NewsItemDetail as ItemDetail,
  NewsItemTranslation as Translation,
} from '@fairex/shared/api/backoffice.ts';

const EMPTY: Translation = { title: '', abstract: '', content: '' };

/** One item in every language: each language is written, or left out (readers then get English). */
export default function NewsEditorPage() {
  const t = useAdminT();
  const params = useParams();
  const creating = params.id === 'new';
  const id = creating ? null : Number(params.id);
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const categories = useQuery({
    queryKey: ['admin', 'categories'],
    queryFn: () => adminApi.get<NewsCategoriesReply>('/backoffice/news/categories'),
  });
  const item = useQuery({
    queryKey: ['admin', 'news-item', id],
    queryFn: () => adminApi.get<ItemDetail>('/backoffice/news/items/detail', { id: id ?? 0 }),
    enabled: id !== null,
  });
  const [categoryId, setCategoryId] = useState<number | undefined>(
    search.get('category') ? Number(search.get('category')) : 3,
  );
  const [linkUrl, setLinkUrl] = useState('');
  const [sortOrder, setSortOrder] = useState(0);
  const [published, setPublished] = useState(false);
  const [texts, setTexts] = useState<Partial<Record<Language, Translation>>>({ en: { ...EMPTY } });
  const [active, setActive] = useState<Language>('en');

  useEffect(() => {
    if (!item.data) return;
    setCategoryId(item.data.category_id);
    setLinkUrl(item.data.link_url ?? '');
    setSortOrder(item.data.sort_order);
    setPublished(item.data.is_published);
    setTexts(item.data.translations);
    setActive((LANGUAGES.find((lang) => item.data.translations[lang]) ?? 'en') as Language);
  }, [item.data]);

  const category = categories.data?.list.find((entry) => entry.id === categoryId);
  const save = useAdminMutation(
    () => {
      const translations = Object.fromEntries(
        LANGUAGES.flatMap((lang) => {
          const text = texts[lang];
          return text === undefined
            ? []
            : [[lang, { title: text.title, abstract: text.abstract, content: text.content }]];
        }),
      );
      const body = {
        category_id: categoryId,
        link_url: linkUrl.trim() === '' ? undefined : linkUrl.trim(),
        sort_order: sortOrder,
        is_published: published,
        translations,
      };
      return creating
        ? adminApi.post<NewsItemCreatedReply>('/backoffice/news/items/create', body)
        : adminApi.post<string>('/backoffice/news/items/update', { id, ...body });
    },
    {
      invalidate: [['news-items'], ['news-item'], ['categories']],
      onSuccess: (result) => {
        if (creating)
          void navigate(`/admin/content/items/${(result as { id: number }).id}`, { replace: true });
        else void queryClient.invalidateQueries({ queryKey: ['admin', 'news-item', id] });
      },
    },
  );

  if (!creating && item.isPending) return <Spin />;
  if (!creating && item.error) return <Alert type="error" showIcon message={item.error.message} />;

  const setText = (lang: Language, patch: Partial<Translation>) =>
    setTexts((current) => ({ ...current, [lang]: { ...(current[lang] ?? EMPTY), ...patch } }));
  const toggle = (lang: Language, on: boolean) =>
    setTexts((current) => {
      const next = { ...current };
      if (on) next[lang] = current[lang] ?? { ...EMPTY };
      else delete next[lang];
      return next;
    });

  return (
    <div>
      <PageHeader
        title={creating ? t('content.newItem') : t('content.editItem', { id: id ?? 0 })}
        extra={
          <Space>
            <Link to="/admin/content">
              <Button icon={<ArrowLeftOutlined />}>{t('common.back')}</Button>
            </Link>
            <Button
              type="primary"
              icon={<SaveOutlined />}
              loading={save.isPending}
              onClick={() => save.mutate(undefined)}
              data-testid="news-save"
            >
              {t('common.save')}
            </Button>
          </Space>
        }
      />
      <Row gutter={16}>
        <Col xs={24} xl={17}>
          <Card>
            <Tabs
              activeKey={active}
              onChange={(key) => setActive(key as Language)}
              items={LANGUAGES.map((lang) => ({
                key: lang,
                forceRender: true,
                label: (
                  <span data-testid={`news-tab-${lang}`}>
                    {LANGUAGE_INFO[lang].nativeName}
                    {texts[lang] ? ' ●' : ''}
                  </span>
                ),
                children: (
                  <Space direction="vertical" size="middle" className="fx-admin-full">
                    <Checkbox
                      checked={texts[lang] !== undefined}
                      onChange={(event) => toggle(lang, event.target.checked)}
                      data-testid={`news-lang-${lang}`}
                    >
                      {t('content.writeLanguage', { language: LANGUAGE_INFO[lang].nativeName })}
                    </Checkbox>
                    {texts[lang] !== undefined ? (
                      <Form layout="vertical">
                        <Form.Item label={t('content.itemTitle')} required>
                          <Input
                            value={texts[lang]?.title}
                            maxLength={300}
                            lang={LANGUAGE_INFO[lang].locale}
                            onChange={(event) => setText(lang, { title: event.target.value })}
                            data-testid={`news-title-${lang}`}
                          />
                        </Form.Item>
                        <Form.Item label={t('content.abstract')}>
                          <Input.TextArea
                            rows={2}
                            maxLength={2000}
                            value={texts[lang]?.abstract}
                            lang={LANGUAGE_INFO[lang].locale}
                            onChange={(event) => setText(lang, { abstract: event.target.value })}
                          />
                        </Form.Item>
                        <Form.Item label={t('content.body')}>
                          <RichTextEditor
                            value={texts[lang]?.content ?? ''}
                            lang={LANGUAGE_INFO[lang].locale}
                            onChange={(html) => setText(lang, { content: html })}
                            testId={`news-body-${lang}`}
                          />
                        </Form.Item>
                      </Form>
                    ) : (
                      <Typography.Text type="secondary">{t('content.languageOff')}</Typography.Text>
                    )}
                  </Space>
                ),
              }))}
            />
          </Card>
        </Col>
        <Col xs={24} xl={7}>
          <Card title={t('content.publishing')}>
            <Form layout="vertical">
              <Form.Item label={t('content.category')}>
                <Select
                  value={categoryId}
                  onChange={(value: number) => setCategoryId(value)}
                  options={categories.data?.list.map((entry) => ({
                    value: entry.id,
                    label: categoryName(entry),
                  }))}
                  data-testid="news-category"
                />
              </Form.Item>
              {category?.kind === 'partner' && (
                <Form.Item label={t('content.link')} extra={t('content.linkHint')}>
                  <Input
                    value={linkUrl}
                    onChange={(event) => setLinkUrl(event.target.value)}
                    placeholder="https://"
                  />
                </Form.Item>
              )}
              <Form.Item label={t('markets.order')} extra={t('content.orderHint')}>
                <InputNumber
                  value={sortOrder}
                  precision={0}
                  onChange={(value) => setSortOrder(value ?? 0)}
                  className="fx-admin-full"
                />
              </Form.Item>
              <Form.Item label={t('content.published')}>
                <Switch checked={published} onChange={setPublished} data-testid="news-published" />
              </Form.Item>
            </Form>
            <Typography.Paragraph type="secondary" className="fx-admin-note">
              {t('content.sanitiseNote')}
            </Typography.Paragraph>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
