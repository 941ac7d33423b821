import { Alert } from '@mantine/core';
import { CarScreen } from '../../../features/car/car-header';
import { DailyReport } from '../../../features/reports/daily-report';
import { reportTexts } from '../../../features/reports/texts';

/** `/car/car_daily_report/{car_id?}/{car_data_id?}?date=YYYY-MM-DD`: the vehicle's 運行日報 of a day in Japan. */
export function Component() {
  return (
    <CarScreen title={reportTexts.daily.title}>
      {(car) =>
        car.car_data_id ? (
          <DailyReport carDataId={car.car_data_id} />
        ) : (
          <Alert color="yellow">{reportTexts.daily.noTerminal}</Alert>
        )
      }
    </CarScreen>
  );
}
