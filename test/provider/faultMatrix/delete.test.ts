import { startLab } from "../harness";
import { defineMatrixSuite } from "./matrix";

defineMatrixSuite("delete", startLab);
