import type { UsageDay } from '@console/domain';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/**
 * The 7-day usage bars. Recharts is large, so this module is its own chunk, loaded only
 * when the chart is shown. Amounts are plotted as numbers: display only, never arithmetic.
 */
export default function CreditUsageChart({ history }: { history: UsageDay[] }) {
  const points = history.map((day) => ({ date: day.date.slice(5), consumption: Number(day.consumption), refunds: Number(day.refunds) }));
  return (
    <ResponsiveContainer width="100%" height={240} initialDimension={{ width: 320, height: 240 }}>
      <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" vertical={false} />
        <XAxis dataKey="date" tickLine={false} fontSize={12} />
        <YAxis tickLine={false} fontSize={12} width={48} />
        <Tooltip />
        <Bar dataKey="consumption" name="Consumption" fill="var(--color-primary)" radius={[4, 4, 0, 0]} />
        <Bar dataKey="refunds" name="Refunds" fill="var(--color-info)" radius={[4, 4, 0, 0]} />
      </BarChart>
    </ResponsiveContainer>
  );
}
