import { ORG_TYPE_LABELS, TREE_CHILDREN_LIMIT, TREE_DESCENDANT_COUNT_CAP, type OrganizationTree, type TreeNode } from '@console/domain';
import { useQuery } from '@tanstack/react-query';
import { ChevronDown, ChevronRight, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { organizationQueries } from '@/api/organizations';
import { LoadingRows } from '@/components/loading-rows';
import { QueryError } from '@/components/query-error';
import { OrgStatusBadge } from './org-status-badge';
import { MESSAGES } from '../wording';

function countLabel(count: number, one: string, many: string) {
  return `${count} ${count === 1 ? one : many}`;
}

/** The server stops counting descendants past the cap. */
function descendantsLabel(count: number) {
  if (count > TREE_DESCENDANT_COUNT_CAP) return `${TREE_DESCENDANT_COUNT_CAP.toLocaleString('en-US')}+ descendants`;
  return countLabel(count, 'descendant', 'descendants');
}

/** The children a tree request returned, with a note when the node has more than one request shows. */
function ChildList({ tree, base, depth }: { tree: OrganizationTree; base: string; depth: number }) {
  const { node, children } = tree;
  return (
    <ul className="space-y-1">
      {children.map((child) => (
        <TreeItem key={child.id} node={child} base={base} depth={depth} />
      ))}
      {node.child_count > children.length && (
        <li className="py-1 pl-8 text-sm text-muted-foreground">
          Showing the first {TREE_CHILDREN_LIMIT} of {node.child_count}. Use the table view to search them all.
        </li>
      )}
    </ul>
  );
}

/** The children of one node, loaded when the node is first expanded. */
function TreeLevel({ parentId, base, depth }: { parentId: string; base: string; depth: number }) {
  const tree = useQuery(organizationQueries.tree(parentId));
  if (tree.isPending) {
    return (
      <div role="status" className="flex items-center gap-2 py-1 pl-8 text-sm text-muted-foreground">
        <Loader2 className="size-4 animate-spin" aria-hidden />
        Loading…
      </div>
    );
  }
  if (tree.isError) return <QueryError error={tree.error} title={MESSAGES.organizations.failedToLoad} onRetry={tree.refetch} />;
  return <ChildList tree={tree.data} base={base} depth={depth} />;
}

function TreeItem({ node, base, depth }: { node: TreeNode; base: string; depth: number }) {
  const [expanded, setExpanded] = useState(false);
  const expandable = node.child_count > 0;
  return (
    <li>
      {/* The indentation is the row's padding; what wraps stays beside the chevron, under the name. */}
      <div
        className="flex items-start gap-2 rounded-md py-1 hover:bg-muted/50"
        style={{ paddingLeft: `${depth * 1.5}rem` }}
        data-depth={depth}
      >
        {expandable ? (
          <Button
            variant="ghost"
            size="icon"
            className="size-7 shrink-0"
            aria-expanded={expanded}
            aria-label={`${expanded ? 'Collapse' : 'Expand'} ${node.name}`}
            onClick={() => setExpanded((value) => !value)}
          >
            {expanded ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
          </Button>
        ) : (
          <span className="inline-block size-7 shrink-0" aria-hidden />
        )}
        <div className="flex min-w-0 flex-1 flex-wrap items-center gap-x-2 gap-y-1 pt-0.5">
          <Link
            to={`${base}/${node.id}`}
            className="min-w-0 font-medium wrap-anywhere underline-offset-4 hover:underline"
            title={node.name}
          >
            {node.name}
          </Link>
          <span className="text-sm text-muted-foreground">{ORG_TYPE_LABELS[node.org_type]}</span>
          <OrgStatusBadge status={node.status} />
          {expandable && <span className="text-xs text-muted-foreground">{countLabel(node.child_count, 'child', 'children')}</span>}
        </div>
      </div>
      {expanded && <TreeLevel parentId={node.id} base={base} depth={depth + 1} />}
    </li>
  );
}

/**
 * The Hierarchy view: the root organization and its children; every node with children
 * expands on demand, one level (at most 200 children) per request, so a large tree stays fast.
 */
export function OrganizationTreeView({ rootId, base }: { rootId: string | undefined; base: string }) {
  const tree = useQuery(organizationQueries.tree(rootId));
  if (tree.isPending) {
    return <LoadingRows rows={['h-6 w-64', 'h-6 w-56', 'h-6 w-60']} />;
  }
  if (tree.isError) return <QueryError error={tree.error} title={MESSAGES.organizations.failedToLoad} onRetry={tree.refetch} />;
  const { node, children } = tree.data;
  return (
    <div className="space-y-2" aria-label="Organization hierarchy" role="region">
      <div className="flex flex-wrap items-center gap-2">
        <Link
          to={`${base}/${node.id}`}
          className="min-w-0 text-lg font-semibold wrap-anywhere underline-offset-4 hover:underline"
          title={node.name}
        >
          {node.name}
        </Link>
        <span className="text-sm text-muted-foreground">{ORG_TYPE_LABELS[node.org_type]}</span>
        <OrgStatusBadge status={node.status} />
        <span className="text-xs text-muted-foreground">
          {countLabel(node.child_count, 'child', 'children')}, {descendantsLabel(node.descendant_count)}
        </span>
      </div>
      {children.length === 0 ? (
        <p className="text-sm text-muted-foreground">No child organizations.</p>
      ) : (
        <ChildList tree={tree.data} base={base} depth={0} />
      )}
    </div>
  );
}
