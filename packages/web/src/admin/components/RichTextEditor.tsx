import {
  BoldOutlined,
  CodeOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
  MinusOutlined,
} from '@ant-design/icons';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Divider, Input, Modal, Tooltip } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useAdminT } from '../i18n.ts';

interface RichTextEditorProps {
  value: string;
  onChange: (html: string) => void;
  lang: string;
  testId: string;
}

/**
 * The news editor: Tiptap (ProseMirror) with the formatting a notice needs, and a toolbar drawn with the
 * console's own buttons so that it follows day and night. It writes HTML; the server keeps only what its
 * sanitiser allows, so the editor is a convenience, not a safeguard.
 */
export function RichTextEditor({ value, onChange, lang, testId }: RichTextEditorProps) {
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3, 4] },
        link: { openOnClick: false, autolink: true, protocols: ['https', 'http', 'mailto'] },
      }),
    ],
    content: value,
    editorProps: { attributes: { class: 'fx-admin-editor-body', lang, 'data-testid': testId } },
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? '' : current.getHTML()),
    // Created after the component has mounted, never during a render React may throw away (a render that
    // suspends on a lazily loaded chunk): an editor made there is destroyed, and reading it failed.
    immediatelyRender: false,
  });
  // A different item loaded into the same editor.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    if (value !== editor.getHTML() && !(value === '' && editor.isEmpty)) {
      editor.commands.setContent(value, { emitUpdate: false });
    }
  }, [editor, value]);
  return (
    <div className="fx-admin-editor">
      {editor && <Toolbar editor={editor} />}
      <EditorContent editor={editor} />
    </div>
  );
}

function Toolbar({ editor }: { editor: Editor }) {
  const t = useAdminT();
  const [linking, setLinking] = useState(false);
  const [href, setHref] = useState('');
  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      underline: current.isActive('underline'),
      strike: current.isActive('strike'),
      code: current.isActive('code'),
      h2: current.isActive('heading', { level: 2 }),
      h3: current.isActive('heading', { level: 3 }),
      bullet: current.isActive('bulletList'),
      ordered: current.isActive('orderedList'),
      quote: current.isActive('blockquote'),
      link: current.isActive('link'),
      undo: current.can().undo(),
      redo: current.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();
  const button = (
    key: string,
    label: string,
    icon: ReactNode,
    active: boolean,
    run: () => void,
    disabled = false,
  ) => (
    <Tooltip title={label} key={key}>
      <Button
        type={active ? 'primary' : 'text'}
        size="small"
        icon={icon}
        onClick={run}
        disabled={disabled}
        aria-label={label}
        aria-pressed={active}
      />
    </Tooltip>
  );
  const text = (key: string, label: string, short: string, active: boolean, run: () => void) => (
    <Tooltip title={label} key={key}>
      <Button
        type={active ? 'primary' : 'text'}
        size="small"
        onClick={run}
        aria-label={label}
        aria-pressed={active}
      >
        {short}
      </Button>
    </Tooltip>
  );
  return (
    <div className="fx-admin-editor-toolbar" role="toolbar">
      {text('h2', t('editor.heading'), 'H2', state.h2, () => chain().toggleHeading({ level: 2 }).run())}
      {text('h3', t('editor.subheading'), 'H3', state.h3, () => chain().toggleHeading({ level: 3 }).run())}
      <Divider type="vertical" />
      {button('bold', t('editor.bold'), <BoldOutlined />, state.bold, () => chain().toggleBold().run())}
      {button('italic', t('editor.italic'), <ItalicOutlined />, state.italic, () =>
        chain().toggleItalic().run(),
      )}
      {button('underline', t('editor.underline'), <UnderlineOutlined />, state.underline, () =>
        chain().toggleUnderline().run(),
      )}
      {button('strike', t('editor.strike'), <StrikethroughOutlined />, state.strike, () =>
        chain().toggleStrike().run(),
      )}
      {button('code', t('editor.code'), <CodeOutlined />, state.code, () => chain().toggleCode().run())}
      <Divider type="vertical" />
      {button('bullet', t('editor.bulletList'), <UnorderedListOutlined />, state.bullet, () =>
        chain().toggleBulletList().run(),
      )}
      {button('ordered', t('editor.orderedList'), <OrderedListOutlined />, state.ordered, () =>
        chain().toggleOrderedList().run(),
      )}
      {text('quote', t('editor.quote'), '❝', state.quote, () => chain().toggleBlockquote().run())}
      {button('rule', t('editor.rule'), <MinusOutlined />, false, () => chain().setHorizontalRule().run())}
      {button('link', t('editor.link'), <LinkOutlined />, state.link, () => {
        setHref((editor.getAttributes('link').href as string | undefined) ?? 'https://');
        setLinking(true);
      })}
      <Divider type="vertical" />
      {button('undo', t('editor.undo'), <UndoOutlined />, false, () => chain().undo().run(), !state.undo)}
      {button('redo', t('editor.redo'), <RedoOutlined />, false, () => chain().redo().run(), !state.redo)}
      <Modal
        open={linking}
        title={t('editor.link')}
        onCancel={() => setLinking(false)}
        onOk={() => {
          const target = href.trim();
          if (target === '' || target === 'https://') chain().extendMarkRange('link').unsetLink().run();
          else chain().extendMarkRange('link').setLink({ href: target }).run();
          setLinking(false);
        }}
      >
        <Input value={href} onChange={(event) => setHref(event.target.value)} placeholder="https://" />
      </Modal>
    </div>
  );
}
