import { startLab } from "../harness";
import { defineMatrixSuite } from "./matrix";

defineMatrixSuite("update", startLab);
