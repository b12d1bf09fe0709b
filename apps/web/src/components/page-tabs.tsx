import type { ComponentProps, ReactNode } from 'react';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';

export interface PageTab {
  value: string;
  label: string;
  /** Classes for the tab's panel; by default its cards stack with a gap between them. */
  className?: string;
  content: ReactNode;
}

const LIST = {
  wrap: 'h-auto w-full flex-wrap sm:w-fit',
  scroll: 'w-full justify-start overflow-x-auto sm:w-fit',
};

interface PageTabsProps extends Omit<ComponentProps<typeof Tabs>, 'children'> {
  /** The tabs in order; `false` leaves out a tab this user may not see. */
  tabs: (PageTab | false)[];
  /** On a narrow screen the tabs wrap onto more lines, or stay on one line that scrolls sideways. */
  overflow?: keyof typeof LIST;
}

/** A page's sections as tabs: the tab list, then one panel per tab. */
export function PageTabs({ tabs, overflow = 'wrap', ...props }: PageTabsProps) {
  const shown = tabs.filter((tab): tab is PageTab => tab !== false);
  return (
    <Tabs {...props}>
      <TabsList className={LIST[overflow]}>
        {shown.map((tab) => (
          <TabsTrigger key={tab.value} value={tab.value}>
            {tab.label}
          </TabsTrigger>
        ))}
      </TabsList>
      {shown.map((tab) => (
        <TabsContent key={tab.value} value={tab.value} className={tab.className ?? 'space-y-4'}>
          {tab.content}
        </TabsContent>
      ))}
    </Tabs>
  );
}
