import {
  DeleteOutlined,
  EditOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Row,
  Select,
  Space,
  Switch,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table/index.js';
import { useState } from 'react';
import { useAdminT, type AdminKey } from '../i18n.ts';
import { Link, useNavigate } from 'react-router';
import { currentLanguage } from '../../i18n/index.ts';
import { LANGUAGE_INFO, LANGUAGES } from '../../i18n/languages.ts';
import { adminApi, type Paged } from '../../data/admin-api.ts';
import { PageHeader, useAdminMutation } from '../components/common.tsx';
import { editColumn, LanguageTags, OnOffTag, timeColumn, useAdminPage } from '../components/table.tsx';
import type {
  NewsCategoriesReply,
  NewsCategoryLine as Category,
  NewsItemLine as Item,
} from '@fairex/shared/api/backoffice.ts';

export type { NewsCategoryLine as Category } from '@fairex/shared/api/backoffice.ts';

export function categoryName(category: Category | undefined): string {
  if (!category) return '';
  return category.names[currentLanguage()] ?? category.names.en ?? String(category.id);
}

/** The site's words: notices, news, footer pages, FAQ, commitments and partner links, in five languages. */
export default function ContentPage() {
  const t = useAdminT();
  const categories = useQuery({
    queryKey: ['admin', 'categories'],
    queryFn: () => adminApi.get<NewsCategoriesReply>('/backoffice/news/categories'),
  });
  return (
    <div>
      <PageHeader title={t('content.title')} description={t('content.description')} />
      <Card>
        <Tabs
          items={[
            {
              key: 'items',
              label: t('content.items'),
              children: <Items categories={categories.data?.list ?? []} />,
            },
            {
              key: 'categories',
              label: t('content.categories'),
              children: <Categories list={categories.data?.list ?? []} loading={categories.isPending} />,
            },
          ]}
        />
      </Card>
    </div>
  );
}

function Items({ categories }: { categories: Category[] }) {
  const t = useAdminT();
  const navigate = useNavigate();
  const [category, setCategory] = useState<number | undefined>(undefined);
  const [query, setQuery] = useState('');
  const { list, setPage, pagination } = useAdminPage<Paged<Item>>(
    ['news-items', category, query],
    '/backoffice/news/items',
    { category_id: category, q: query || undefined },
    { showTotal: true },
  );
  const invalidate = [['news-items'], ['categories']];
  const publish = useAdminMutation(
    ({ id, published }: { id: number; published: boolean }) =>
      adminApi.post<string>('/backoffice/news/items/publish', { id, published }),
    { invalidate },
  );
  const remove = useAdminMutation(
    (id: number) => adminApi.post<string>('/backoffice/news/items/delete', { id }),
    { invalidate },
  );
  const byId = new Map(categories.map((entry) => [entry.id, entry]));
  const columns: ColumnsType<Item> = [
    { title: 'ID', dataIndex: 'id', width: 70 },
    {
      title: t('content.itemTitle'),
      dataIndex: 'title',
      render: (title: string, row) => (
        <Space direction="vertical" size={0}>
          <Link to={`/admin/content/items/${row.id}`}>{title}</Link>
          {row.link_url && (
            <Typography.Text type="secondary" className="fx-admin-small">
              {row.link_url}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    {
      title: t('content.category'),
      dataIndex: 'category_id',
      render: (id: number) => <Tag>{categoryName(byId.get(id))}</Tag>,
    },
    {
      title: t('markets.languages'),
      dataIndex: 'languages',
      render: (languages: string[]) => <LanguageTags written={languages} />,
    },
    {
      title: t('common.status'),
      key: 'state',
      render: (_: unknown, row) => (
        <Space size={4}>
          {row.is_published ? (
            <Tag color="green">{t('content.published')}</Tag>
          ) : (
            <Tag>{t('content.draft')}</Tag>
          )}
          {row.seeded && <Tag>{t('content.seeded')}</Tag>}
        </Space>
      ),
    },
    timeColumn(t('content.updated'), 'updated_at'),
    {
      key: 'actions',
      align: 'right',
      render: (_: unknown, row) => (
        <Space size={0}>
          <Button
            type="link"
            icon={<EditOutlined />}
            onClick={() => void navigate(`/admin/content/items/${row.id}`)}
          />
          <Button
            type="link"
            icon={row.is_published ? <EyeInvisibleOutlined /> : <EyeOutlined />}
            title={row.is_published ? t('content.unpublish') : t('content.publish')}
            onClick={() => publish.mutate({ id: row.id, published: !row.is_published })}
          />
          {!row.seeded && (
            <Popconfirm title={t('content.deleteConfirm')} onConfirm={() => remove.mutate(row.id)}>
              <Button type="link" danger icon={<DeleteOutlined />} />
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
  return (
    <Space direction="vertical" className="fx-admin-full">
      <Space className="fx-admin-toolbar" wrap>
        <Select
          allowClear
          placeholder={t('content.allCategories')}
          value={category}
          onChange={(value: number | undefined) => {
            setCategory(value);
            setPage(1);
          }}
          options={categories.map((entry) => ({
            value: entry.id,
            label: `${categoryName(entry)} (${entry.items})`,
          }))}
          className="fx-admin-select-wide"
          data-testid="content-category-filter"
        />
        <Input.Search
          allowClear
          placeholder={t('content.searchPlaceholder')}
          onSearch={(value) => {
            setQuery(value.trim());
            setPage(1);
          }}
          className="fx-admin-search"
        />
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() =>
            void navigate(`/admin/content/items/new${category === undefined ? '' : `?category=${category}`}`)
          }
          data-testid="content-new"
        >
          {t('content.newItem')}
        </Button>
      </Space>
      <Table<Item>
        rowKey="id"
        columns={columns}
        dataSource={list.data?.data}
        loading={list.isFetching}
        data-testid="content-items"
        pagination={pagination}
      />
    </Space>
  );
}

function Categories({ list, loading }: { list: Category[]; loading: boolean }) {
  const t = useAdminT();
  const [editing, setEditing] = useState<Category | null>(null);
  const columns: ColumnsType<Category> = [
    { title: 'ID', dataIndex: 'id', width: 60 },
    {
      title: t('content.name'),
      key: 'name',
      render: (_: unknown, row) => <span className="fx-admin-strong">{categoryName(row)}</span>,
    },
    {
      title: t('content.kind'),
      dataIndex: 'kind',
      render: (kind: string) => <Tag color="geekblue">{t(`content.kinds.${kind}` as AdminKey)}</Tag>,
    },
    {
      title: t('markets.languages'),
      dataIndex: 'names',
      render: (names: Record<string, string>) => <LanguageTags written={names} />,
    },
    {
      title: t('content.itemsCount'),
      key: 'count',
      align: 'right',
      render: (_: unknown, row) => `${row.published} / ${row.items}`,
    },
    { title: t('markets.order'), dataIndex: 'sort_order', align: 'right' },
    {
      title: t('content.visible'),
      dataIndex: 'is_visible',
      render: (on: boolean) => <OnOffTag on={on} />,
    },
    editColumn<Category>(t('common.edit'), setEditing),
  ];
  return (
    <>
      <Typography.Paragraph type="secondary">{t('content.categoriesNote')}</Typography.Paragraph>
      <Table<Category>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list}
        loading={loading}
        pagination={false}
      />
      {editing !== null && <CategoryEditor category={editing} onClose={() => setEditing(null)} />}
    </>
  );
}

/** The category form: what `/news/categories/update` takes besides the category's id. */
type CategoryValues = { names: Record<string, string>; sort_order: number; is_visible: boolean };

function CategoryEditor({ category, onClose }: { category: Category; onClose: () => void }) {
  const t = useAdminT();
  const [form] = Form.useForm<CategoryValues>();
  const save = useAdminMutation(
    (values: CategoryValues) =>
      adminApi.post<string>('/backoffice/news/categories/update', { id: category.id, ...values }),
    { invalidate: [['categories']], onSuccess: onClose },
  );
  return (
    <Modal
      open
      title={categoryName(category)}
      okText={t('common.save')}
      onCancel={onClose}
      onOk={() => void form.validateFields().then((values) => save.mutate(values))}
      confirmLoading={save.isPending}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          names: category.names,
          sort_order: category.sort_order,
          is_visible: category.is_visible,
        }}
      >
        {LANGUAGES.map((lang) => (
          <Form.Item
            key={lang}
            name={['names', lang]}
            label={LANGUAGE_INFO[lang].nativeName}
            rules={lang === 'en' ? [{ required: true, max: 100 }] : [{ max: 100 }]}
          >
            <Input lang={LANGUAGE_INFO[lang].locale} />
          </Form.Item>
        ))}
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="sort_order" label={t('markets.order')}>
              <InputNumber precision={0} className="fx-admin-full" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="is_visible" label={t('content.visible')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}
